import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { search } from './search.js';
import { formatSearch } from './format-search.js';

let dir: string;
let store: Store;
const lines = (s: string, texts: string[]) =>
  texts.map((t, i) => JSON.stringify({ s, id: `${s}-${i}`, t }) + '\n').join('');

// "script" holds the question's words in nearby messages, never all in one block; "far" holds them far
// apart; "some" holds two of them; "block" holds every word in one block.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-words-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'src', 'script.jsonl'),
    lines('script', [
      'Let me run the installation script',
      '/home/ken/bin/flow-install-global.sh',
      'Exit code 126: Permission denied',
      'ok',
    ]),
  );
  writeFileSync(
    join(dir, 'src', 'far.jsonl'),
    lines('far', [
      'install the thing',
      ...Array.from({ length: 20 }, (_, i) => `filler ${i}`),
      'a script',
      'permission denied',
    ]),
  );
  writeFileSync(join(dir, 'src', 'some.jsonl'), lines('some', ['the install script is here', 'nothing else']));
  writeFileSync(join(dir, 'src', 'block.jsonl'), lines('block', ['install script: permission denied']));
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('natural multi-word questions', () => {
  it('ranks a block holding every word, then every word in nearby messages, then partial matches', () => {
    const result = search(store.db, { query: 'install script permission denied' });
    expect(result.sessions.map((s) => [s.id, s.match ?? 'block'])).toEqual([
      ['block', 'block'],
      ['script', 'near'],
      ['far', 'partial'],
      ['some', 'partial'],
    ]);
    const script = result.sessions[1]!;
    expect(script.hits.map((h) => h.message).sort()).toEqual([1, 2, 3]);
    expect(result.sessions[3]!.missing).toEqual(['permission', 'denied']);
    const text = formatSearch(result, 'hits');
    expect(text).toMatch(/script .*every word within a few messages, not in one block/);
    expect(text).toMatch(/some .*partial: no "permission", "denied"/);
  });

  it('finds the session of a question holding a word that is in no text', () => {
    const result = search(store.db, { query: 'flow-install-global permission zebra' });
    expect(result.sessions[0]!.id).toBe('script');
    expect(result.sessions[0]!.missing).toEqual(['zebra']);
  });

  it('keeps -l and -c to sessions with a block holding every word (as grep would)', () => {
    expect(
      search(store.db, { query: 'install script permission denied', exhaustive: true }).sessions.map((s) => s.id),
    ).toEqual(['block']);
  });

  it('matches word by word within the filters', () => {
    const result = search(store.db, { query: 'install script permission denied', session: 'script' });
    expect(result.sessions.map((s) => [s.id, s.match])).toEqual([['script', 'near']]);
  });
});
