// Claude Code and Codex hand the model a tool's structuredContent, not its text block: what to ask next is
// said there too, in the tool's own arguments (session, maxPerSession, skip), never in the CLI's flags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../store/db.js';
import { ingest } from '../core/ingest/ingest.js';
import { createMemoryParseCache } from '../core/codemap/memory-cache.js';
import { testLineAdapter } from '../../test/support/test-adapter.js';
import { searchTool } from './tools/search.js';
import { readTool } from './tools/read.js';
import { storeReader } from './server.js';

let dir: string;
let store: Store;
const line = (s: string, id: string, t: string) => `${JSON.stringify({ s, id, t })}\n`;
const cliSyntax = /strata (search|read|ingest)|--[a-z]/;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-mcp-hints-'));
  mkdirSync(join(dir, 'src'));
  const cache = Array.from({ length: 5 }, (_, i) => line('cachework', `c${i}`, `the cache layer, step ${i}`));
  const long = line('longread', 'l1', Array.from({ length: 300 }, (_, i) => `word${i}`).join(' '));
  const many = Array.from({ length: 1001 }, (_, i) => line(`s${i % 7}`, `w${i}`, `widespread term number ${i}`));
  writeFileSync(join(dir, 'src', 'a.jsonl'), [...cache, long, ...many].join(''));
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({
  store,
  env: {},
  roots: [dir],
  refresh: async () => 'fresh' as const,
  parseCache: createMemoryParseCache(),
  reader: storeReader(store, {}),
});

describe('MCP answers say what to ask next in the tool arguments', () => {
  it('search: a session with more hits names the session and maxPerSession to pass', async () => {
    const { text, structured } = await searchTool.run({ query: 'cache', limit: 10, maxPerSession: 3 } as never, ctx());
    const s = structured.sessions[0]!;
    expect(s.id).toBe('cachework');
    expect(s.hits).toHaveLength(3);
    expect(s.more?.maxPerSession).toBe(5);
    expect(s.id.startsWith(s.more!.session)).toBe(true);
    expect(JSON.stringify(structured)).not.toMatch(cliSyntax);
    expect(text).not.toMatch(cliSyntax);
  });

  it('search: a query ranked among the newest matches only says which arguments rank every match', async () => {
    const { text, structured } = await searchTool.run(
      { query: 'widespread', limit: 3, maxPerSession: 1 } as never,
      ctx(),
    );
    expect(structured.window).toEqual({ ranked: 1000 });
    expect(structured.hint).toMatch(/best of the newest 1,000.*\(project, after, in, session\)/);
    expect(JSON.stringify(structured)).not.toMatch(cliSyntax);
    expect(text).not.toMatch(cliSyntax);
  });

  it('read: a cut answer names the skip to pass, and blocks carry no empty defaults', async () => {
    const { text, structured } = await readTool.run({ session: 'longread', targetWords: 50 } as never, ctx());
    expect(structured.more).toEqual({ skip: structured.wordLimit });
    expect(text).toContain(`read again with skip: ${structured.wordLimit}.`);
    expect(text).not.toMatch(cliSyntax);
    const block = structured.messages[0]!.blocks[0]!;
    expect(block.truncated).toBe(true);
    expect(Object.keys(block).sort()).toEqual(['field', 'kind', 'text', 'truncated', 'words']);
  });
});
