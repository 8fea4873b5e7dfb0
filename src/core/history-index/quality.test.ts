// Offline summaries a developer can use: no prompt headers or ids in summaries or topics, prompt
// templates repeated across turns never picked as the summary, importance spread over the range.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractiveProvider, LlmRunner } from '../llm/index.js';
import { generateHistoryIndex } from './index.js';
import { writeHistory, type SamplePrompt } from '../../../test/support/history-index-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'strata-hi-quality-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEMPLATE = [
  'Role: You are a Senior Full Stack Developer responsible for implementing user stories end to end.',
  'Always write complete, production ready implementation code with tests for the whole stack.',
  'Follow the existing architecture and keep the implementation consistent across the stack.',
];
const TASKS = [
  'Add a dark mode toggle to the settings page and persist the choice in localStorage.',
  'The login redirect loops forever after logout because the session cookie is not cleared.',
  'Migrate the todo store from a JSON file to SQLite with a schema migration.',
  'Security: the upload endpoint accepts any MIME type, restrict it to images and PDFs.',
  'Rename the TaskCard component to TodoCard and update every import.',
  'Write documentation for the REST API endpoints in docs/api.md.',
  'Speed up the list rendering: virtualize the todo list, it is slow above 5000 items.',
  'Decide between Redux and Zustand for the client state; we chose Zustand because it is smaller.',
];

function uuid(i: number): string {
  const hex = (i * 2654435761).toString(16).padStart(8, '0').slice(-8);
  return `${hex}-1c2d-4e5f-8a9b-${hex}${hex.slice(0, 4)}`;
}

describe('offline history summaries', () => {
  it('leave out headers, ids and repeated templates, tag specific topics and spread importance', async () => {
    const prompts: SamplePrompt[] = TASKS.map((task, i) => ({
      id: uuid(i + 1),
      parentId: null,
      content: `${TEMPLATE.join('\n')}\n\n${task}`,
      timestamp: Date.UTC(2026, 3, 2, 0, i),
      response: {
        content:
          `Done: ${task} ${task} I changed the code for it and checked the result in the browser, then ran ` +
          `the unit tests and the end to end tests again.`,
        timestamp: Date.UTC(2026, 3, 2, 0, i, 30),
      },
    }));
    const path = writeHistory(join(dir, 'history.json'), { fullstack: prompts });
    const result = await generateHistoryIndex({
      source: { kind: 'puffin-file', path },
      outputPath: join(dir, 'history.index.json'),
      runner: new LlmRunner({ provider: createExtractiveProvider() }),
      segmentConfig: { conversationsPerSegment: 1 },
    });
    const segments = result.index.segments;
    expect(segments.length).toBe(TASKS.length);
    for (const s of segments) {
      expect(s.summary).not.toMatch(/Prompt [0-9a-f]{8}|[0-9a-f]{8}-[0-9a-f]{4}-|\d{4}-\d\d-\d\dT|Branch:/);
      expect(s.summary).not.toMatch(/Senior Full Stack|production ready|existing architecture/);
      expect(s.topics.some((t) => /[0-9a-f]{4,}/.test(t) && /\d/.test(t))).toBe(false);
      expect(s.topics).not.toContain('implementation');
      expect(s.topics).not.toContain('stack');
    }
    const scores = segments.map((s) => s.importanceScore);
    expect(scores.filter((x) => x >= 0.99).length).toBe(0);
    expect(Math.max(...scores) - Math.min(...scores)).toBeGreaterThanOrEqual(0.5);
    const security = segments.find((s) => s.summary.includes('upload endpoint'))!;
    const docs = segments.find((s) => s.summary.includes('documentation'))!;
    expect(security.importanceScore).toBeGreaterThan(docs.importanceScore);
  });
});
