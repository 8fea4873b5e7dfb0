// A session never finds itself: the MCP search and the session-start context leave out the calling session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { openStore, type Store } from '../store/db.js';
import { ingest } from '../core/ingest/ingest.js';
import { searchTool } from './tools/search.js';
import { storeReader } from './server.js';
import { createMemoryParseCache } from '../core/codemap/memory-cache.js';
import { runHookContext } from '../hooks/run-hooks.js';

let dir: string;
let store: Store;
const project = () => join(dir, 'home', '.claude', 'projects', '-work-app');

function transcript(id: string, ts: string, text: string): string {
  return JSON.stringify({
    type: 'user',
    uuid: `${id}-u1`,
    sessionId: id,
    timestamp: ts,
    cwd: '/work/app',
    message: { role: 'user', content: text },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-self-'));
  mkdirSync(project(), { recursive: true });
  writeFileSync(join(project(), 'older.jsonl'), transcript('older', '2026-03-01T09:00:00Z', 'the heron queue stalls'));
  writeFileSync(
    join(project(), 'current.jsonl'),
    transcript('current', '2026-03-02T09:00:00Z', 'why does heron stall?'),
  );
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, paths: [project()], env: { HOME: join(dir, 'home') }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function searchAs(env: Record<string, string>, session?: string): Promise<string[]> {
  const ctx = {
    store,
    reader: storeReader(store, env),
    env,
    roots: [dir],
    refresh: async () => 'fresh' as const,
    parseCache: createMemoryParseCache(),
  };
  const args = { query: 'heron', limit: 10, maxPerSession: 3, ...(session ? { session } : {}) };
  const answer = await searchTool.run(args as never, ctx);
  return answer.structured.sessions.map((s) => s.id);
}

describe('the calling session', () => {
  it('is left out of an MCP search when its client names it', async () => {
    expect((await searchAs({})).sort()).toEqual(['current', 'older']);
    expect(await searchAs({ CLAUDE_CODE_SESSION_ID: 'current' })).toEqual(['older']);
    expect(await searchAs({ CODEX_THREAD_ID: 'current' })).toEqual(['older']);
    expect(await searchAs({ CLAUDE_CODE_SESSION_ID: 'current' }, 'current')).toEqual(['current']);
  });

  it('is not among the latest sessions a resumed session is told of', async () => {
    let out = '';
    const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
    const io = { stdout, stderr: stdout, env: { STRATA_HOME: join(dir, 'data') }, cwd: '/work/app' };
    expect(await runHookContext({ ...io, stdin: JSON.stringify({ cwd: '/work/app' }) })).toBe(0);
    expect(out).toContain('why does heron stall');
    out = '';
    const stdin = JSON.stringify({ hook_event_name: 'SessionStart', cwd: '/work/app', session_id: 'current' });
    expect(await runHookContext({ ...io, stdin })).toBe(0);
    const context = JSON.parse(out).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('the heron queue stalls');
    expect(context).not.toContain('why does heron stall');
    out = '';
    const byPath = JSON.stringify({ cwd: '/work/app', transcript_path: join(project(), 'current.jsonl') });
    expect(await runHookContext({ ...io, stdin: byPath })).toBe(0);
    expect(out).not.toContain('why does heron stall');
  });
});
