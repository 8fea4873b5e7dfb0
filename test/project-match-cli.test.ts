// `--project` end to end: whole segments, the `~/…` form the listing shows for another machine's home
// given back, and an empty match that says so instead of asking for an ingest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, runCli, tempDir } from './support/cli.js';

let dir: string;
const env = (): Record<string, string> => ({ HOME: join(dir, 'home'), STRATA_HOME: join(dir, 'data') });

beforeAll(async () => {
  dir = tempDir();
  const ingest = await runCli(
    ['ingest', join(FIXTURES, 'aider', 'luvatrix'), join(FIXTURES, 'claude-code', 'omarchy-backup')],
    env(),
  );
  expect(ingest.code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--project', () => {
  it('matches whole path segments, and a listed `~/…` project round-trips', async () => {
    expect((await runCli(['index', '--project', 'luvatrix', '--json'], env())).stdout).toContain('luvatrix');
    const partial = await runCli(['index', '--project', 'luvatri'], env());
    expect(partial.stderr.trim()).toBe('no sessions match --project luvatri');
    const listed = (await runCli(['index'], env())).stdout;
    expect(listed).toContain('~/Claude');
    const sessions = JSON.parse((await runCli(['index', '--project', '~/Claude', '--json'], env())).stdout);
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s: { project: string }) => s.project === '/home/vwestberg/Claude')).toBe(true);
    const found = await runCli(['search', 'waybar', '--project', '~/Claude'], env());
    expect(found.code).toBe(0);
  });
});
