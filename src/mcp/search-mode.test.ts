// MCP `search` takes the same `mode` as the CLI: semantic and hybrid ranking once the store holds vectors
// (embedded by a real OpenAI-compatible server on 127.0.0.1, whose URL the store remembers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../store/db.js';
import { ingest } from '../core/ingest/ingest.js';
import { embedStore } from '../core/embed/embed-run.js';
import { createOpenAiCompatibleProvider } from '../core/embed/openai-compatible.js';
import { createMemoryParseCache } from '../core/codemap/memory-cache.js';
import { testLineAdapter } from '../../test/support/test-adapter.js';
import { startEmbeddingServer, type EmbeddingServer } from '../../test/support/embedding-server.js';
import { searchTool } from './tools/search.js';
import { storeReader } from './server.js';

let dir: string;
let store: Store;
let server: EmbeddingServer;
const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-mcp-mode-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'src', 'a.jsonl'),
    line('outage', 'o1', 'the docker container was crashing, over and over') +
      line('memo', 'm1', 'we decided to memoize the results with a cache'),
  );
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
  server = await startEmbeddingServer();
  await embedStore(store.db, createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' }));
});
afterAll(async () => {
  store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ask(args: Record<string, unknown>) {
  const ctx = {
    store,
    reader: storeReader(store, {}),
    env: {},
    roots: [dir],
    refresh: async () => 'fresh' as const,
    parseCache: createMemoryParseCache(),
  };
  return (await searchTool.run({ limit: 10, maxPerSession: 3, ...args } as never, ctx)).structured;
}

describe('MCP search mode', () => {
  it('ranks by meaning with mode semantic, hybrid by default, lexical when asked', async () => {
    const semantic = await ask({ query: 'pod died', mode: 'semantic' });
    expect(semantic.ranking).toBe('semantic');
    expect(semantic.sessions[0]!.id).toBe('outage');
    const byDefault = await ask({ query: 'pod died' });
    expect(byDefault.ranking).toBe('hybrid');
    expect(byDefault.sessions[0]!.id).toBe('outage');
    const lexical = await ask({ query: 'pod died', mode: 'lexical' });
    expect(lexical.sessions).toEqual([]);
  });
});
