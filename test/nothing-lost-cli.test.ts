// End to end, through the ingest worker thread: a re-ingest never deletes a stored message, and the same
// transcript reached under two paths is stored once (issue 20, items 1 and 2).
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURES, runCli, tempDir } from './support/cli.js';

const F = join(
  FIXTURES,
  'claude-code/omarchy-backup/projects/-home-vwestberg-Claude/1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);
const SID = '1fb5e404-604d-4a2b-baf1-3beb42a67371';

function counts(home: string): { messages: number; archived: number; blocks: number } {
  const db = new Database(join(home, 'strata.db'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT (SELECT COUNT(*) FROM messages) AS messages, (SELECT COUNT(*) FROM messages WHERE archived = 1) AS ' +
          'archived, (SELECT COUNT(*) FROM blocks) AS blocks',
      )
      .get() as never;
  } finally {
    db.close();
  }
}

describe('nothing lost, nothing doubled (end to end, worker thread)', () => {
  const env = (home: string) => ({ STRATA_HOME: home, HOME: home, STRATA_INGEST_WORKER: '1' });

  it(
    'keeps every message of a transcript cut to 350 lines, marks the vanished ones in read, and still finds ' + 'them',
    async () => {
      const home = tempDir();
      const src = tempDir();
      const path = join(src, `${SID}.jsonl`);
      copyFileSync(F, path);
      expect((await runCli(['ingest', src, '--json'], env(home))).code).toBe(0);
      const before = counts(home);
      expect(before.messages).toBe(463);
      writeFileSync(path, readFileSync(F, 'utf8').split('\n').slice(0, 350).join('\n') + '\n');
      const second = await runCli(['ingest', src], env(home));
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/gone from their source \(kept, archived\)/);
      const after = counts(home);
      expect(after).toMatchObject({ messages: 463, blocks: before.blocks });
      expect(after.archived).toBeGreaterThan(0);
      const read = await runCli(['read', SID, '--json'], env(home));
      expect(read.code).toBe(0);
      expect(JSON.parse(read.stdout).messages.filter((m: { removed: boolean }) => m.removed)).toHaveLength(
        after.archived,
      );
      expect((await runCli(['read', SID, '460-463'], env(home))).stdout).toContain('(removed from source)');
    },
  );

  it('stores a transcript copied into two folders and reached through a symlinked root once', async () => {
    const home = tempDir();
    const src = tempDir();
    for (const folder of ['a', 'b']) {
      mkdirSync(join(src, folder));
      copyFileSync(F, join(src, folder, `${SID}.jsonl`));
    }
    symlinkSync(join(src, 'a'), join(src, 'link'));
    expect((await runCli(['ingest', join(src, 'a'), '--json'], env(home))).code).toBe(0);
    const single = counts(home);
    const report = JSON.parse(
      (await runCli(['ingest', join(src, 'a'), join(src, 'b'), join(src, 'link'), '--json'], env(home))).stdout,
    );
    expect(report.messagesAdded).toBe(0);
    expect(counts(home)).toEqual(single);
  });
});
