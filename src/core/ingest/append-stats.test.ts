import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from './ingest.js';

const SID = 'a9e0d000-0000-4000-a000-00000000a9e0';
let at = 0;
const record = (type: 'user' | 'assistant', uuid: string, content: unknown, id?: string) =>
  JSON.stringify({
    type,
    uuid,
    sessionId: SID,
    cwd: '/work/app',
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, at++)).toISOString(),
    message: { role: type, ...(id ? { id, model: 'm' } : {}), content },
  });
const call = (id: string, name: string, input: unknown) => [{ type: 'tool_use', id, name, input }];
const result = (id: string, text: string) => [{ type: 'tool_result', tool_use_id: id, content: text }];

/** A session with edits, web calls and commits whose results arrive later, and messages split over lines. */
const LINES = [
  record('user', 'u1', 'fix the login bug'),
  record(
    'assistant',
    'a1',
    call('t1', 'Edit', { file_path: '/work/app/a.ts', old_string: 'x', new_string: 'y\nz' }),
    'm1',
  ),
  record('user', 'u2', result('t1', 'ok')),
  record('assistant', 'a2', [{ type: 'text', text: 'Now I commit.' }], 'm2'),
  record('assistant', 'a3', call('t2', 'Bash', { command: 'git commit -m one' }), 'm2'),
  record('user', 'u3', result('t2', '[main 1a2b3c4] one\n 1 file changed')),
  record('assistant', 'a4', call('t3', 'Bash', { command: 'git commit -m two' }), 'm3'),
  record('user', 'u4', result('t3', 'nothing to commit, working tree clean')),
  record('user', 'u5', 'and fetch the docs'),
  record('assistant', 'a5', call('t4', 'WebFetch', { url: 'https://example.org' }), 'm4'),
  record('assistant', 'a6', call('t5', 'Bash', { command: 'git commit -am three' }), 'm4'),
  record('user', 'u6', result('t5', '[main 9f8e7d6] three')),
  record('user', 'u7', result('t4', 'the page')),
  record('assistant', 'a7', call('t6', 'Write', { file_path: '/work/app/constructor', content: '1\n2\n3' }), 'm5'),
];

let dir: string;
let stores: Store[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-append-stats-'));
  stores = [];
});
afterEach(() => {
  for (const store of stores) store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storeWith(name: string, steps: number[]): Promise<Store> {
  const store = openStore(join(dir, name, 'strata.db'));
  stores.push(store);
  const file = join(dir, name, 'projects', '-work-app', `${SID}.jsonl`);
  mkdirSync(join(file, '..'), { recursive: true });
  for (const lines of steps) {
    writeFileSync(file, `${LINES.slice(0, lines).join('\n')}\n`);
    await ingest({
      store,
      paths: [file],
      env: { HOME: dir },
      cwd: dir,
      pipeline: 'inline',
      lockPath: join(dir, 'lock'),
    });
  }
  return store;
}

const stats = (store: Store) =>
  store.db.prepare('SELECT * FROM session_stats ORDER BY session_id').all() as Record<string, unknown>[];

describe('statistics of a session appended to', () => {
  it('are those of the whole session ingested at once, wherever the file was cut', async () => {
    const whole = stats(await storeWith('whole', [LINES.length]));
    expect(whole).toMatchObject([
      { bash_calls: 3, web_fetches: 1, commits: 2, commit_hashes: '["1a2b3c4","9f8e7d6"]', lines_added: 5 },
    ]);
    for (let cut = 1; cut < LINES.length; cut++)
      expect(stats(await storeWith(`cut-${cut}`, [cut, LINES.length])), `cut after line ${cut}`).toEqual(whole);
    const growing = Array.from({ length: LINES.length }, (_, i) => i + 1);
    expect(stats(await storeWith('line-by-line', growing))).toEqual(whole);
  });
});
