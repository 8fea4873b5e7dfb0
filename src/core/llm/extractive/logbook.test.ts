// The offline provider's logbook events: bugs from a failing tool result followed by a fix, facts from
// stated constraints and @/ markers, no events from tool lines, boilerplate prompts, filler or bare paths.
import { describe, expect, it } from 'vitest';
import { extractLogbookEvents, type LogbookChunkMessage } from '../index.js';

const at = (i: number): string =>
  `2026-03-0${Math.min(9, 1 + Math.floor(i / 10))}T10:${String(i % 60).padStart(2, '0')}:00.000Z`;
const chunk = (messages: Array<Omit<LogbookChunkMessage, 'id' | 'timestamp'>>) => ({
  conversationId: 'c1',
  messages: messages.map((m, i) => ({ ...m, id: String(i + 1), timestamp: at(i) })),
  existingEvents: [],
});

describe('extractive logbook events', () => {
  it('turns a failing command followed by an edit and a passing run into a bug with its resolution', () => {
    const { events } = extractLogbookEvents(
      chunk([
        { role: 'user', text: 'run the tests' },
        { role: 'assistant', text: '→ Bash: npm test' },
        {
          role: 'tool',
          text: '← Bash FAILED: Exit code 1 … TypeError: cannot read properties of undefined (reading "id")',
          failed: true,
        },
        { role: 'assistant', text: '→ Edit: /repo/src/session.ts' },
        { role: 'tool', text: '← Edit: The file /repo/src/session.ts has been updated.' },
        { role: 'assistant', text: '→ Bash: npm test' },
        { role: 'tool', text: '← Bash: 42 passed' },
      ]),
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'bug',
        timestamp: at(2),
        content: '`npm test` failed: TypeError: cannot read properties of undefined (reading "id")',
        resolution: 'edited src/session.ts',
        code: 'npm test',
        source: { conversation_id: 'c1', message_id: '3' },
      }),
    ]);
  });

  it('takes the stated cause as the resolution, and ignores failures with no fix or of the harness', () => {
    const fixed = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: '→ Bash: cargo build' },
        {
          role: 'tool',
          text: '← Bash FAILED: error[E0433]: failed to resolve: use of undeclared crate `serde`',
          failed: true,
        },
        { role: 'assistant', text: 'The problem was that serde is missing from Cargo.toml, so I added it.' },
      ]),
    ).events;
    expect(fixed[0]).toMatchObject({
      type: 'bug',
      resolution: 'The problem was that serde is missing from Cargo.toml, so I added it.',
    });
    const unfixed = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: '→ Bash: make' },
        { role: 'tool', text: '← Bash FAILED: make: *** No rule to make target all. Stop. error', failed: true },
        { role: 'assistant', text: 'Okay.' },
        { role: 'assistant', text: '→ Edit: a.ts' },
        {
          role: 'tool',
          text: '← Edit FAILED: <tool_use_error>String to replace not found in file.</tool_use_error>',
          failed: true,
        },
      ]),
    ).events;
    expect(unfixed.filter((e) => e.type === 'bug')).toEqual([]);
  });

  it('finds constraints and markers, and skips tool lines, filler, questions, pasted templates and bare paths', () => {
    const template =
      '# Project guidelines\n\n## Style\n\n## Testing\n\nYou must always run mix precommit before finishing.\n' +
      '- use the project conventions for everything\n'.repeat(14);
    const { events } = extractLogbookEvents(
      chunk([
        { role: 'user', text: template },
        { role: 'user', text: 'The export must stay under 10 MB because the upload API rejects larger files.' },
        {
          role: 'assistant',
          text:
            'Let me check the decision log instead of guessing.\n→ Read: /repo/docs/decisions.md\nShould we use ' +
            'Redis instead of SQLite here?',
        },
        { role: 'assistant', text: '@/decision: keep the cache in SQLite rather than Redis\n/repo/src/cache.ts' },
      ]),
    );
    expect(events.map((e) => [e.type, e.content])).toEqual([
      ['fact', 'The export must stay under 10 MB because the upload API rejects larger files.'],
      ['decision', 'keep the cache in SQLite rather than Redis'],
    ]);
    expect(events[1]).toMatchObject({ alternatives: ['Redis'] });
  });

  it('an option offered or a problem described with "instead of" is no decision', () => {
    const { events } = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: 'I can change the active indicator to a subtle underline instead of a box.' },
        { role: 'assistant', text: 'The route was returning a fetch Response instead of the actual stream.' },
        { role: 'assistant', text: 'The agent can explore variations rather than running the same regression suite.' },
        { role: 'assistant', text: 'We switched to pnpm instead of npm because installs were three times faster.' },
      ]),
    );
    expect(events.map((e) => [e.type, e.content])).toEqual([
      ['decision', 'We switched to pnpm instead of npm because installs were three times faster.'],
    ]);
    expect(events[0]).toMatchObject({ rationale: 'installs were three times faster', alternatives: ['npm'] });
  });
});
