import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runCli, tempDir } from './support/cli.js';

describe('strata demo (the README quick start)', () => {
  it(
    'ingests the built-in sessions into a temp store, shows ' + 'index and searches, and leaves nothing behind',
    async () => {
      const home = tempDir();
      const before = readdirSync(tmpdir()).filter((f) => f.startsWith('strata-demo-')).length;
      const res = await runCli(['demo'], { STRATA_HOME: home, HOME: home });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('ingested 3 example Claude Code sessions');
      expect(res.stdout).toMatch(/redactions: 1\b/);
      expect(res.stdout).toMatch(/5d1c2a0e .* We need to store tide readings locally/);
      // The decision is found by search, cited with session id and message number.
      expect(res.stdout).toMatch(
        /\$ strata search SQLite\n(.|\n)*5d1c2a0e(.|\n)*#\d+ assistant: .*decided to use SQLite/,
      );
      expect(res.stdout).toMatch(/\$ strata search 时区\n8a4f7b2c/);
      // Search shows the project as the index does (~ for the home it ran under).
      expect(res.stdout).toMatch(/\$ strata search SQLite\nc3e8d1f4 {2}\S+ \S+ {2}claude-code {2}~\/tide-tracker {2}/);
      // The user's own store is untouched and the temp folder is removed.
      expect(readdirSync(home)).toEqual([]);
      expect(readdirSync(tmpdir()).filter((f) => f.startsWith('strata-demo-')).length).toBe(before);
    },
  );

  it('prints only JSON with --json', async () => {
    const res = await runCli(['demo', '--json'], { HOME: tempDir() });
    const out = JSON.parse(res.stdout);
    expect(out.sessions).toHaveLength(3);
    expect(out.report.redactions).toBe(1);
  });
});
