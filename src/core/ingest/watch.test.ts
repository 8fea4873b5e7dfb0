import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchAndIngest } from './watch.js';
import { emptyReport } from './report.js';
import { StrataError } from '../../shared/errors.js';
import type { IngestOptions } from './ingest.js';
import type { Store } from '../../store/db.js';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-watch-'));
  store = { path: join(dir, 'strata.db') } as Store;
  for (const name of ['a.jsonl', 'b.jsonl', 'c.jsonl']) writeFileSync(join(dir, name), '{}\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const until = async (check: () => boolean) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('watchAndIngest', () => {
  it('a stop request lets the file being ingested finish and ingests no other', async () => {
    const stop = new AbortController();
    const calls: string[] = [];
    let finished = 0;
    const ingestFn = async (o: IngestOptions) => {
      calls.push(o.paths![0]!);
      stop.abort();
      await new Promise((r) => setTimeout(r, 50));
      finished++;
      return { ...emptyReport(), filesIngested: 1 };
    };
    const watching = watchAndIngest({
      store,
      paths: [dir],
      env: {},
      cwd: dir,
      debounceMs: 20,
      signal: stop.signal,
      ingestFn,
      onWatching: () => {
        for (const name of ['a.jsonl', 'b.jsonl', 'c.jsonl']) appendFileSync(join(dir, name), '{}\n');
      },
    });
    await watching;
    expect(calls).toHaveLength(1);
    expect(finished).toBe(1);
  });

  it('keeps a file pending while another writer holds the store, and ingests it in a later round', async () => {
    const stop = new AbortController();
    const calls: string[] = [];
    const batches: { files: number; deferred: number }[] = [];
    const ingestFn = async (o: IngestOptions) => {
      calls.push(o.paths![0]!);
      expect(o.lockTimeoutMs).toBe(0);
      if (calls.length === 1) throw new StrataError('LOCKED', 'held');
      return { ...emptyReport(), filesIngested: 1, messagesAdded: 2 };
    };
    const watching = watchAndIngest({
      store,
      paths: [join(dir, 'a.jsonl')],
      env: {},
      cwd: dir,
      debounceMs: 20,
      signal: stop.signal,
      ingestFn,
      onWatching: () => appendFileSync(join(dir, 'a.jsonl'), '{}\n'),
      onBatch: (b) => batches.push(b),
    });
    await until(() => batches.some((b) => b.files === 1));
    stop.abort();
    await watching;
    expect(calls).toEqual([join(dir, 'a.jsonl'), join(dir, 'a.jsonl')]);
    expect(batches[0]).toMatchObject({ files: 0, deferred: 1 });
    expect(batches.at(-1)).toMatchObject({ files: 1, messagesAdded: 2, deferred: 0 });
  });

  it('refuses a second watcher of the same store', async () => {
    const stop = new AbortController();
    const first = watchAndIngest({
      store,
      paths: [dir],
      env: {},
      cwd: dir,
      signal: stop.signal,
      ingestFn: async () => emptyReport(),
    });
    await expect(
      watchAndIngest({ store, paths: [dir], env: {}, cwd: dir, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'LOCKED' });
    stop.abort();
    await first;
  });
});
