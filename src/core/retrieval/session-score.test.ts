import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { search } from './search.js';

let dir: string;
let store: Store;
const lines = (s: string, texts: string[]) =>
  texts.map((t, i) => JSON.stringify({ s, id: `${s}-${i}`, t }) + '\n').join('');

// "crash" answers the question over a prompt and its reply without its stop words; "decoy" holds every
// word of the question, stop words included, once each in nearby messages; "cjk" is a Chinese session.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-question-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'src', 'crash.jsonl'),
    lines('crash', [
      'the container is in a crash loop again after the deploy',
      'The crash loop came from the OOM killer: I raised the container memory limit and it is fixed.',
      'thanks',
    ]),
  );
  writeFileSync(
    join(dir, 'src', 'decoy.jsonl'),
    lines('decoy', ['which does it', 'a container image', 'no crash here', 'a loop in the code', 'fixed typo']),
  );
  // "smoker" answers how long ago a smoker was bought; "dates" holds only how the question counts and dates.
  writeFileSync(
    join(dir, 'src', 'smoker.jsonl'),
    lines('smoker', ['I got a new smoker for the backyard', 'A smoker makes brisket easy: keep it at 110 °C.']),
  );
  writeFileSync(
    join(dir, 'src', 'dates.jsonl'),
    lines('dates', ['how many days ago was the deadline?', 'Two days ago; many days ago for the first one.']),
  );
  // "garden" says gardening, never the compound "gardening-related" the question asks about.
  writeFileSync(
    join(dir, 'src', 'garden.jsonl'),
    lines('garden', ['Gardening is my new weekend activity', 'Then plant the tomato saplings in full sun.']),
  );
  writeFileSync(
    join(dir, 'src', 'rainy.jsonl'),
    lines('rainy', ['What activity suits a rainy day?', 'A board game is a good activity for a rainy day.']),
  );
  writeFileSync(join(dir, 'src', 'cjk.jsonl'), lines('cjk', ['执行rebase之后出现了冲突', '已经解决了冲突']));
  writeFileSync(join(dir, 'src', 'other.jsonl'), lines('other', ['解决问题的办法', 'rebase the branch']));
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('questions ranked as questions', () => {
  it('ranks the session with the evidence first, not the one holding the stop words', () => {
    const result = search(store.db, { query: 'which session does fix the container crash loop?' });
    expect(result.sessions[0]!.id).toBe('crash');
    expect(result.sessions[0]!.hits.map((h) => h.message).sort()).toEqual([1, 2]);
  });

  it('weighs the words a question counts and dates with below the words it is about', () => {
    const result = search(store.db, { query: 'How many days ago did I buy a smoker?' });
    expect(result.sessions.map((s) => s.id)).toEqual(['smoker', 'dates']);
  });

  it('matches a hyphenated word of a question by its parts too', () => {
    const result = search(store.db, { query: 'What gardening-related activity did I do?' });
    expect(result.sessions.map((s) => s.id)).toEqual(['garden', 'rainy']);
  });

  it('finds a Chinese question by its words between particles', () => {
    const result = search(store.db, { query: '我们怎么解决rebase的冲突' });
    expect(result.sessions.map((s) => s.id)).toEqual(['cjk', 'other']);
  });

  it('keeps block matching for keyword queries', () => {
    const result = search(store.db, { query: 'crash loop' });
    expect(result.sessions.map((s) => [s.id, s.match ?? 'block'])).toEqual([
      ['crash', 'block'],
      ['decoy', 'near'],
    ]);
  });
});
