import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { deferredDir, hasDeferred, pendingDeferred, recordDeferred } from './deferred.js';
import { ingest } from './ingest.js';

const SID = '22222222-3333-4444-5555-666666666666';
let dir: string;
let store: Store;

function transcript(name: string, word: string): string {
  const path = join(dir, 'projects', '-tmp-p', `${name}.jsonl`);
  mkdirSync(join(dir, 'projects', '-tmp-p'), { recursive: true });
  const message = { role: 'user', content: `remember the ${word}` };
  writeFileSync(
    path,
    JSON.stringify({ type: 'user', uuid: name, sessionId: name, timestamp: '2026-01-01T00:00:00Z', message }) + '\n',
  );
  return path;
}

const stored = (word: string): number =>
  store.db.prepare("SELECT COUNT(*) FROM blocks WHERE text LIKE '%' || ? || '%'").pluck().get(word) as number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-deferred-'));
  store = openStore(join(dir, 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('deferred ingests', () => {
  it('are done by the next ingest of anything, which removes exactly the entries it did', async () => {
    const queued = transcript(SID, 'axolotl');
    recordDeferred(store.path, { paths: [queued], cwd: dir });
    recordDeferred(store.path, { paths: [join(dir, 'gone.jsonl')] });
    writeFileSync(join(deferredDir(store.path), 'broken.json'), '{');
    expect(pendingDeferred(store.path).entries).toHaveLength(2);
    const other = transcript(SID.replace('2222', '7777'), 'okapi');
    // An unredacted run leaves the queue to a redacting one.
    await ingest({ store, paths: [other], redact: false, env: { HOME: dir }, cwd: dir, pipeline: 'inline' });
    expect(stored('axolotl')).toBe(0);
    expect(hasDeferred(store.path)).toBe(true);
    await ingest({ store, paths: [other], env: { HOME: dir }, cwd: dir, pipeline: 'inline' });
    expect(stored('axolotl')).toBe(1);
    expect(readdirSync(deferredDir(store.path))).toEqual([]);
    expect(hasDeferred(store.path)).toBe(false);
  });

  it('never overwrite each other: two hooks deferring the same transcript leave two entries', () => {
    const path = transcript(SID, 'axolotl');
    recordDeferred(store.path, { paths: [path] }, new Date(1));
    recordDeferred(store.path, { paths: [path] }, new Date(2));
    expect(pendingDeferred(store.path).entries.map((e) => e.at)).toEqual([
      new Date(1).toISOString(),
      new Date(2).toISOString(),
    ]);
  });
});
