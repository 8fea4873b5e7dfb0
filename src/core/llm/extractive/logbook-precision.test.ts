// Offline logbook events, precision first: no narration, plans, hedges or options only offered; whole
// sentences (link targets gone, cuts at a word with "…"); one event per failure merged with its fix;
// "edited X" only with evidence; the user's own decisions first.
import { describe, expect, it } from 'vitest';
import { extractLogbookEvents, type LogbookChunkMessage } from '../index.js';

const chunk = (messages: Array<Omit<LogbookChunkMessage, 'id' | 'timestamp'>>) => ({
  conversationId: 'c1',
  messages: messages.map((m, i) => ({ ...m, id: String(i + 1), timestamp: `2026-03-01T10:${10 + i}:00.000Z` })),
  existingEvents: [],
});
const contents = (messages: Array<Omit<LogbookChunkMessage, 'id' | 'timestamp'>>): string[] =>
  extractLogbookEvents(chunk(messages)).events.map((e) => e.content);

describe('extractive logbook precision', () => {
  it('skips narration, plans, hedges, options only offered and sentences without a subject', () => {
    expect(
      contents([
        { role: 'assistant', text: "I'm reading the entrypoint and bootstrap contract next, since it requires care." },
        { role: 'assistant', text: "Next I'll switch to the streaming parser because the buffer requires it." },
        { role: 'assistant', text: "I'll use a generic approach with an enum to represent either a value or a list." },
        { role: 'assistant', text: 'The issue is likely with the strict parameter in the YAML loader itself.' },
        { role: 'assistant', text: 'We need to fix the lint errors in main or rebase our branch instead of merging.' },
        { role: 'assistant', text: "But: If GPT-5 requires special configuration, we'd need to update the client." },
        { role: 'assistant', text: 'and it will always use the latest version of the package registry.' },
        { role: 'assistant', text: 'The filename must be alone on the line before the opening fence"' },
      ]),
    ).toEqual([]);
  });

  it('keeps whole sentences: link targets stripped, a long one cut at a word with "…"', () => {
    const link = '[the migration guide](https://example.com/docs/very/long/path/to/the/guide/page.html#section)';
    const long = `We decided to follow ${link} and keep the old schema ${'for every tenant '.repeat(8)}until June.`;
    const [content] = contents([{ role: 'user', text: long }]);
    expect(content).toMatch(/^We decided to follow the migration guide and keep the old schema for every tenant/);
    expect(content).not.toContain('https://');
    expect(content).toMatch(/ (?:tenant|for|every)…$/);
    expect(content!.length).toBeLessThanOrEqual(160);
  });

  it('makes one event of a failure, its restated causes and its fix', () => {
    const { events } = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: '→ Bash: flow help' },
        { role: 'tool', text: '← Bash FAILED: /bin/bash: line 1: flow: command not found', failed: true },
        { role: 'assistant', text: "The issue is that there's no flow executable in the PATH, only flow.sh." },
        { role: 'assistant', text: 'The issue is that the installer only copied flow.sh and made no symlink.' },
        { role: 'assistant', text: 'The issue was the missing symlink, which I fixed by linking flow to flow.sh.' },
      ]),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'bug',
      content: '`flow help` failed: /bin/bash: line 1: flow: command not found',
    });
  });

  it('says "edited X" only when the failing command passes later or the error names X', () => {
    const unrelated = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: '→ Bash: npm test' },
        { role: 'tool', text: '← Bash FAILED: TypeError: cannot read properties of undefined', failed: true },
        { role: 'assistant', text: '→ Edit: /repo/README.md' },
        { role: 'tool', text: '← Edit: The file /repo/README.md has been updated.' },
        { role: 'assistant', text: '→ Bash: ls' },
        { role: 'tool', text: '← Bash: README.md src' },
      ]),
    ).events;
    expect(unrelated).toEqual([]);
    const named = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: '→ Bash: npx tsc' },
        { role: 'tool', text: '← Bash FAILED: src/app.ts(3,1): error TS2304: Cannot find name x', failed: true },
        { role: 'assistant', text: '→ Edit: /repo/src/app.ts' },
        { role: 'tool', text: '← Edit: The file /repo/src/app.ts has been updated.' },
        { role: 'assistant', text: '→ Bash: git status' },
        { role: 'tool', text: '← Bash: clean' },
      ]),
    ).events;
    expect(named[0]).toMatchObject({ resolution: 'edited src/app.ts' });
  });

  it("ranks the user's own decision before the agent's when a chunk holds more than it keeps", () => {
    const families = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
    const agent = families.map((family, i) => ({
      role: 'assistant',
      text: `We switched to parser version ${i} of the ${family} family for speed reasons today.`,
    }));
    const events = contents([...agent, { role: 'user', text: "Let's go with Postgres for the job queue, not Redis." }]);
    expect(events).toContain("Let's go with Postgres for the job queue, not Redis.");
  });

  it("takes nothing from a long pasted document with title lines (a code review), only the user's own words", () => {
    const review =
      'Code Review for PR #17: Fix Streaming\n✅ Strengths\n' +
      'The buffered parsing approach is more robust than the line-by-line approach in several ways.\n'.repeat(8) +
      '⚠️ Issues\nRequest Changes - The authentication bug must be fixed before merging.\n' +
      'Security Concerns\n' +
      'The handler trusts the client for the session id and it should not do that at all.\n'.repeat(6) +
      'Recommendation\nOverall a good change that needs the fix above.';
    expect(review.length).toBeGreaterThan(1200);
    expect(contents([{ role: 'user', text: review }])).toEqual([]);
  });

  it('a shell command that rewrites the file the error names fixed it; a command that only reads it did not', () => {
    const failing = [
      { role: 'assistant' as const, text: '→ shell: bash scripts/check.sh --json' },
      {
        role: 'tool' as const,
        text: "← shell FAILED: scripts/check.sh: line 2: $'\\r': command not found",
        failed: true,
      },
    ];
    const runThen = (command: string) =>
      extractLogbookEvents(
        chunk([...failing, { role: 'assistant', text: `→ shell: ${command}` }, { role: 'tool', text: '← shell: ' }]),
      ).events;
    const [bug] = runThen("sed -i 's/\\r$//' scripts/check.sh");
    expect(bug?.content).toBe(
      "`bash scripts/check.sh --json` failed: scripts/check.sh: line 2: $'\\r': command not found",
    );
    expect(bug?.resolution).toBe("ran `sed -i 's/\\r$//' scripts/check.sh`");
    expect(runThen('cat scripts/check.sh')).toEqual([]);
    expect(runThen('bash scripts/check.sh')).toEqual([]);
    // A host name is not a file, and a probe of it changes nothing.
    const probed = extractLogbookEvents(
      chunk([
        { role: 'assistant', text: '→ shell: host example.co.za' },
        { role: 'tool', text: '← shell FAILED: Host example.co.za not found: 3(NXDOMAIN)', failed: true },
        { role: 'assistant', text: '→ shell: curl -sI http://example.co.za' },
        { role: 'tool', text: '← shell: HTTP/1.1 200 OK' },
      ]),
    ).events;
    expect(probed).toEqual([]);
  });
});
