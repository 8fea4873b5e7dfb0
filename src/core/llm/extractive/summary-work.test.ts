// Offline segment summaries lead with what was done and decided, never with the prompt verbatim; usage-limit
// replies and pasted instructions are not summarised as work; topics never take strata's template words.
import { describe, expect, it } from 'vitest';
import { SUMMARY_PROMPT_TEMPLATE } from '../prompts.js';
import { NO_WORK_SUMMARY, summarizeSegment } from './summarize.js';

describe('extractive segment summary', () => {
  it('leads with the outcome, and marks the request when it is kept', () => {
    const { summary } = summarizeSegment(
      'user: Port this Python project to Rust and delete all the Python source files when you are done.\n' +
        'assistant: I ported the five modules to a Rust library with doctests for every function.\n' +
        'assistant: All 5 modules are implemented with 100% line coverage, tests pass, and the changes are committed.',
    );
    expect(summary.startsWith('Port this Python project')).toBe(false);
    expect(summary).toMatch(/^(?:I ported|All 5 modules)/);
    expect(summary).not.toMatch(/(?:^|\. )Port this Python/);
  });

  it('does not summarise usage-limit replies or a leaked system prompt as work', () => {
    const limit = summarizeSegment(
      'user: continue with the migration of the billing tables\n' +
        'assistant: Claude usage limit reached. Your limit will reset at 5pm (Europe/Paris).\n' +
        'user: continue\nassistant: API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}',
    );
    const leaked = summarizeSegment(
      'user: You are a senior full stack developer capable of implementing complete features. Your task is to ' +
        'implement the security gate. Always use parameterized queries for database access.\n' +
        'User: important: this is a baseline test of authentication and credential handling.\n' +
        'Agent: I would choose to stop and ask about the production storage of credentials.',
    );
    for (const s of [limit, leaked]) {
      expect(s.summary).toBe(NO_WORK_SUMMARY);
      expect(s.importanceScore).toBeLessThanOrEqual(0.1);
      expect(s.topics).toEqual([]);
    }
  });

  it("never takes a topic from strata's own prompt template", () => {
    const sent = (topic: string) => `user: ${SUMMARY_PROMPT_TEMPLATE.replace('{content}', topic)}\n`;
    const { topics } = summarizeSegment(
      sent('the websocket reconnect backoff') +
        sent('the websocket reconnect delay') +
        sent('the websocket reconnect tests') +
        'assistant: The websocket reconnect backoff now doubles the delay up to thirty seconds between attempts.\n' +
        'assistant: The websocket reconnect tests pass with the doubled backoff delay.',
    );
    for (const word of ['summary', 'topic', 'importance', 'segment', 'conversation', 'outcome', 'json', 'score'])
      expect(topics.join(' ')).not.toContain(word);
    expect(topics.join(' ')).toMatch(/websocket|reconnect|backoff/);
    // Nor a category read from the template's own examples ("security issues, breaking changes").
    expect(topics).not.toContain('security');
    expect(topics).not.toContain('breaking-change');
  });
});
