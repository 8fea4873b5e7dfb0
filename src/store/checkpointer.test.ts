// The background checkpointer (its thread's module runs from dist/: build first) copies the WAL into the
// database file while the writer keeps writing, lets the writer restart a long WAL, and hands
// checkpoints back to the writer when its thread is gone.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { openStore } from './db.js';
import { startCheckpointer } from './checkpointer.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'strata-checkpointer-'));

/** A fresh store for `body`, closed afterwards. */
async function withStore(body: (store: ReturnType<typeof openStore>) => Promise<void>): Promise<void> {
  const store = openStore(join(tempDir(), 'strata.db'));
  try {
    await body(store);
  } finally {
    store.close();
  }
}

describe('background checkpointer', () => {
  it('copies committed pages into the database file while the writer only writes the WAL', async () => {
    await withStore(async (store) => {
      store.db.exec('CREATE TABLE filler (b BLOB)');
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      const before = statSync(store.path).size;
      const checkpointer = startCheckpointer(store.db, store.path, 16_384)!;
      expect(checkpointer).toBeDefined();
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const insert = store.db.prepare('INSERT INTO filler (b) VALUES (randomblob(1048576))');
      for (let i = 0; i < 8; i++) {
        store.db.transaction(() => insert.run())();
        checkpointer.betweenTransactions();
      }
      // The writer never checkpointed (autocheckpoint is off): only the thread can grow the file.
      for (let waited = 0; statSync(store.path).size < before + 8 * 1048576 && waited < 5000; waited += 50)
        await sleep(50);
      expect(statSync(store.path).size).toBeGreaterThanOrEqual(before + 8 * 1048576);
      await checkpointer.stop();
      expect(store.db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
      expect(store.db.prepare('SELECT COUNT(*) FROM filler').pluck().get()).toBe(8);
    });
  });

  it('lets the writer restart a long WAL instead of growing it for the whole ingest', async () => {
    await withStore(async (store) => {
      store.db.exec('CREATE TABLE filler (b BLOB)');
      // The writer finishes a checkpoint itself once the thread reports 1,000 frames (4 MB) of WAL.
      const checkpointer = startCheckpointer(store.db, store.path, 16_384, 1000)!;
      const insert = store.db.prepare('INSERT INTO filler (b) VALUES (randomblob(1048576))');
      for (let i = 0; i < 8; i++) store.db.transaction(() => insert.run())();
      for (let waited = 0; checkpointer.walFrames() < 1000 && waited < 10_000; waited += 20) await sleep(20);
      expect(checkpointer.walFrames()).toBeGreaterThanOrEqual(1000);
      let frames = checkpointer.walFrames();
      for (let waited = 0; frames !== 0 && waited < 10_000; waited += 20) {
        checkpointer.betweenTransactions(); // busy while the thread is mid-checkpoint: tried again
        frames = checkpointer.walFrames();
        if (frames !== 0) await sleep(20);
      }
      expect(frames).toBe(0);
      const extent = statSync(`${store.path}-wal`).size;
      // Everything was copied: the next transactions write the WAL from its start again.
      for (let i = 0; i < 4; i++) store.db.transaction(() => insert.run())();
      expect(statSync(`${store.path}-wal`).size).toBe(extent);
      await checkpointer.stop();
      expect(store.db.prepare('SELECT COUNT(*) FROM filler').pluck().get()).toBe(12);
    });
  });

  it('gives checkpoints back to the writer when its thread cannot run', async () => {
    await withStore(async (store) => {
      // The thread cannot open a store that is not there: it fails at once.
      const checkpointer = startCheckpointer(store.db, join(tempDir(), 'missing.db'), 16_384)!;
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      for (
        let waited = 0;
        waited < 5000 && store.db.pragma('wal_autocheckpoint', { simple: true }) === 0;
        waited += 50
      ) {
        await sleep(50);
        checkpointer.betweenTransactions();
      }
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16_384);
      await checkpointer.stop();
    });
  });
});
