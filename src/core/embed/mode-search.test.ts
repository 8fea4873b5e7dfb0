// Embedding a real store (resumable, identical texts sent once) and searching it by --mode, with vectors from
// a real OpenAI-compatible server on 127.0.0.1 whose vectors put a paraphrase near its original.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { startEmbeddingServer, type EmbeddingServer } from '../../../test/support/embedding-server.js';
import { embedStore } from './embed-run.js';
import { fuseRanks } from './semantic.js';
import { resolveMode, searchWithMode } from './mode-search.js';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';

let dir: string;
let store: Store;
let server: EmbeddingServer;
const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-embed-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'src', 'a.jsonl'),
    line('outage', 'o1', 'the docker container was crashing, over and over') +
      line('outage', 'o2', 'thanks, that works now') +
      line('memo', 'm1', 'we decided to memoize the results with a cache') +
      line('memo', 'm2', 'thanks, that works now'),
  );
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
  server = await startEmbeddingServer();
});
afterAll(async () => {
  store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('strata embed and --mode', () => {
  it('searches lexically while the store has no vectors; refuses --mode semantic then', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' });
    expect(resolveMode(store.db, { query: 'pod died' }, provider)).toBe('lexical');
    await expect(searchWithMode(store.db, { query: 'pod died', mode: 'semantic' }, undefined)).rejects.toThrow(
      /run `strata embed` first/,
    );
  });

  it('embeds resumably: a limited run stops, the next continues; an identical text is sent once', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm', maxBatch: 2 });
    const first = await embedStore(store.db, provider, { maxPassages: 1 });
    expect(first).toMatchObject({ embedded: 1, total: 4, sent: 1 });
    const rest = await embedStore(store.db, provider);
    expect(rest).toMatchObject({ embedded: 4, total: 4, sent: 2, reused: 1 });
    const again = await embedStore(store.db, provider);
    expect(again).toMatchObject({ embedded: 4, sent: 0 });
    expect(server.requests.flatMap((r) => r.input).filter((t) => t === 'thanks, that works now')).toHaveLength(1);
  });

  it('finds by meaning what no word matches, and fuses both rankings by default', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' });
    const lexical = await searchWithMode(store.db, { query: 'pod died', mode: 'lexical' }, provider);
    expect(lexical.sessions).toEqual([]);
    const semantic = await searchWithMode(store.db, { query: 'pod died', mode: 'semantic' }, provider);
    expect(semantic.ranking).toBe('semantic');
    expect(semantic.sessions[0]).toMatchObject({ id: 'outage', hits: [{ message: 1, field: 'user' }] });
    const hybrid = await searchWithMode(store.db, { query: 'memoize pod died' }, provider);
    expect(hybrid.ranking).toBe('hybrid');
    expect(hybrid.sessions.map((s) => s.id).sort()).toEqual(['memo', 'outage']);
    expect(hybrid.sessions.find((s) => s.id === 'outage')!.semantic).toBeGreaterThan(0);
  });

  it('falls back to lexical by default when the query cannot be embedded; fails when the mode was asked', async () => {
    const down = await startEmbeddingServer();
    const url = down.url;
    await down.close();
    const provider = createOpenAiCompatibleProvider({ baseUrl: url, model: 'm', retries: 0 });
    const found = await searchWithMode(store.db, { query: 'docker container' }, provider);
    expect(found.ranking).toBe('lexical');
    expect(found.sessions[0]!.id).toBe('outage');
    await expect(searchWithMode(store.db, { query: 'docker', mode: 'hybrid' }, provider)).rejects.toThrow(
      /connection failed/,
    );
  });

  it('bounds a semantic query as a lexical one, before anything is sent to the model', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' });
    const before = server.requests.length;
    const huge = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');
    await expect(searchWithMode(store.db, { query: huge, mode: 'semantic' }, provider)).rejects.toThrow(/query/);
    expect(server.requests.length).toBe(before);
  });

  it('keeps -E and -l lexical', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' });
    expect(resolveMode(store.db, { query: 'doc+er', regex: true }, provider)).toBe('lexical');
    expect(resolveMode(store.db, { query: 'docker', exhaustive: true }, provider)).toBe('lexical');
  });
});

describe('reciprocal-rank fusion', () => {
  it('ranks a key high in both lists above one first in a single list', () => {
    expect(
      fuseRanks(
        [
          ['a', 'b', 'c'],
          ['b', 'c', 'a'],
        ],
        60,
      ),
    ).toEqual(['b', 'a', 'c']);
    expect(fuseRanks([['x'], []], 60)).toEqual(['x']);
  });
});
