import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { search } from './search.js';
import { noMatchLine } from './format-search.js';

let dir: string;
let store: Store;
const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';

// The test adapter writes user text; fields and noise marks are set afterwards (the index is by block id).
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-noise-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'src', 'a.jsonl'),
    line('boiler', 'b1', 'git push is allowed: sandbox permissions for git push, git push, git push') +
      line('real', 'r1', 'please git push the branch'),
  );
  writeFileSync(
    join(dir, 'src', 'b.jsonl'),
    line('hooks', 'h1', 'reminder: the zanzibar hook ran') +
      line('ide', 'i1', 'The user opened the file src/quokka-config.ts in the IDE') +
      line('review', 'v1', '<user_action> review results: the wombat parser leaks file handles') +
      line('expanded', 'e1', 'Content from referenced files: numbat settings loader'),
  );
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
  store.db.prepare("UPDATE blocks SET field = 'system' WHERE text LIKE 'git push is allowed%'").run();
  store.db.prepare("UPDATE blocks SET noise = 'system-reminder', field = 'system' WHERE text LIKE 'reminder:%'").run();
  store.db.prepare("UPDATE blocks SET noise = 'ide_opened_file' WHERE text LIKE 'The user opened%'").run();
  store.db.prepare("UPDATE blocks SET noise = 'user_action' WHERE text LIKE '<user_action>%'").run();
  store.db.prepare("UPDATE blocks SET noise = 'expanded_content' WHERE text LIKE 'Content from%'").run();
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('noise and boilerplate in search', () => {
  it('ranks injected system instructions below a real message', () => {
    expect(search(store.db, { query: 'git push' }).sessions.map((s) => s.id)).toEqual(['real', 'boiler']);
    expect(search(store.db, { query: 'git push', exhaustive: true }).sessions.map((s) => s.id)).toEqual([
      'real',
      'boiler',
    ]);
  });

  it('searches IDE opened-file notices by default', () => {
    expect(search(store.db, { query: 'quokka-config' }).sessions.map((s) => s.id)).toEqual(['ide']);
  });

  it('searches Codex review findings and files a Gemini prompt expanded by default', () => {
    expect(search(store.db, { query: 'wombat' }).sessions.map((s) => s.id)).toEqual(['review']);
    expect(search(store.db, { query: 'numbat' }).sessions.map((s) => s.id)).toEqual(['expanded']);
  });

  it('is never silent about matches hidden in noise', () => {
    const result = search(store.db, { query: 'zanzibar' });
    expect(result.sessions).toEqual([]);
    expect(result.hidden).toEqual({ noise: 1 });
    expect(noMatchLine(result)).toBe('no matches in messages; 1 in noise — add --in noise');
    expect(
      search(store.db, { query: 'zanzibar', in: [{ category: 'noise', raw: 'noise' }] }).sessions.map((s) => s.id),
    ).toEqual(['hooks']);
    expect(noMatchLine(search(store.db, { query: 'nowhere' }))).toMatch(
      /^no matches \(past 32 KB a tool result is indexed by paths and identifiers; -E scans all text\)$/,
    );
  });
});
