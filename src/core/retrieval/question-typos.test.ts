import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { search } from './search.js';
import { formatSearch, noMatchLine } from './format-search.js';
import { editDistance, headEdits, nearestTerm, prefixLength } from './typo-terms.js';

let dir: string;
let store: Store;
const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';
const SESSIONS: Record<string, string[]> = {
  k8s: ['the kubernetes pod was in a crash loop', 'fixed: the liveness probe fired too early'],
  cache: [
    'the cache worker was in a crash loop, the crash loop fixed by a restart',
    'fixed: the worker had run out of memory',
  ],
  pg: ['the postgres migration failed on the users table', 'which database holds the users?'],
  db: ['the database server and the database client', 'database database database', 'configure the database'],
  typo: ['a note that says postgress once'],
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-typos-'));
  mkdirSync(join(dir, 'src'));
  for (const [s, texts] of Object.entries(SESSIONS))
    writeFileSync(join(dir, 'src', `${s}.jsonl`), texts.map((t, i) => line(s, `${s}${i}`, t)).join(''));
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('editDistance', () => {
  it('counts an insertion, a deletion, a substitution or a swap of adjacent letters as one edit', () => {
    expect(editDistance('kuberentes', 'kubernetes', 2)).toBe(1);
    expect(editDistance('migraton', 'migration', 2)).toBe(1);
    expect(editDistance('postgress', 'postgres', 2)).toBe(1);
    expect(editDistance('databaze', 'database', 2)).toBe(1);
    expect(editDistance('kuberentse', 'kubernetes', 2)).toBe(2);
    // Past the bound it answers bound + 1 without finishing.
    expect(editDistance('kubernetes', 'karaoke', 1)).toBe(2);
  });
});

describe('headEdits', () => {
  it('spells the slips made in the first letters, keeping the first one', () => {
    expect(headEdits('whcih')).toContain('which');
    expect(headEdits('dtabase')).toContain('database');
    expect(headEdits('daatbase')).toContain('database');
    const head = 'kuberentes'.slice(0, prefixLength('kuberentes'));
    expect(head).toBe('kuber');
    expect(headEdits('kuberentes').every((w) => w.startsWith('k') && !w.startsWith(head))).toBe(true);
    // The likeliest slip is tried first: a swap of two letters.
    expect(headEdits('kbuernetes')[0]).toBe('kubernetes');
  });
});

describe('nearestTerm', () => {
  it("finds the index's spelling one edit away, or two for a long word", () => {
    expect(nearestTerm(store.db, 'kuberentes')).toMatchObject({ term: 'kubernetes', distance: 1 });
    expect(nearestTerm(store.db, 'kuberentse')).toMatchObject({ term: 'kubernetes', distance: 2 });
    expect(nearestTerm(store.db, 'dtabase')).toMatchObject({ term: 'database', distance: 1 });
    expect(nearestTerm(store.db, 'whcih')).toMatchObject({ term: 'which', distance: 1 });
  });

  it('prefers fewer edits, then the term in more blocks', () => {
    // "databse" is one edit from database; "postgress" is itself a term but one edit from postgres too.
    expect(nearestTerm(store.db, 'databse')?.term).toBe('database');
    expect(nearestTerm(store.db, 'postgrs')?.term).toBe('postgres');
  });

  it('leaves short words, far words and words with other characters alone', () => {
    expect(nearestTerm(store.db, 'pdo')).toBeUndefined();
    expect(nearestTerm(store.db, 'dtaabse')).toBeUndefined();
    expect(nearestTerm(store.db, 'kubernetes-pod')).toBeUndefined();
  });
});

describe('search of a question with typos', () => {
  it('searches a word that matches nothing by its nearest spelling, and says so', () => {
    const result = search(store.db, { query: 'whcih session fixed the kuberentes crash loop' });
    expect(result.sessions[0]?.id).toBe('k8s');
    // "whcih" is dropped as "which" would be.
    expect(result.corrected).toEqual([{ from: 'kuberentes', to: 'kubernetes' }]);
    expect(formatSearch(result, 'hits').split('\n')[0]).toBe('searched for: kubernetes (for kuberentes)');
  });

  it('keeps a word typed the way some block spells it', () => {
    const result = search(store.db, { query: 'what did the note about postgress say?' });
    expect(result.corrected).toBeUndefined();
    expect(result.sessions[0]?.id).toBe('typo');
  });

  it('never corrects keywords or explicit syntax', () => {
    for (const query of ['kuberentes', 'kuberentes crash', '"kuberentes" crash loop', 'kuberentes OR crash']) {
      expect([query, search(store.db, { query }).corrected]).toEqual([query, undefined]);
    }
    const none = search(store.db, { query: 'kuberentes' });
    expect(none.sessions).toEqual([]);
  });

  it('says what it searched for when the corrected question matches nothing either', () => {
    const result = search(store.db, { query: 'which session fixed the kuberentes pod', session: 'typo' });
    expect(result.sessions).toEqual([]);
    expect(noMatchLine(result)).toBe('no matches (searched for: kubernetes (for kuberentes))');
  });
});
