// A Gemini CLI 0.61-shaped session: its project from `.project_root`, its session context and strata's hook
// context kept as context (not prompts), and strata's own MCP call marked as strata's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../../core/ingest/ingest.js';
import { listSessions } from '../../core/retrieval/session-listing.js';
import { parseGeminiFile } from './parser.js';

let dir: string;
let file: string;
let store: Store;

const ID = '7d1c0b2e-5f3a-4e8b-9c6d-0a1b2c3d4e5f';
const record = (id: string, ts: string, type: string, content: unknown, extra: object = {}) =>
  JSON.stringify({ id, timestamp: `2026-05-04T10:00:${ts}.000Z`, type, content, ...extra });
const LINES = [
  JSON.stringify({ sessionId: ID, projectHash: 'ab12', startTime: '2026-05-04T10:00:00.000Z', kind: 'main' }),
  record('m1', '01', 'user', [{ text: '<session_context>\nToday is Monday. OS: linux\n</session_context>' }]),
  record('m2', '02', 'user', [
    { text: '<hook_context>\n# Latest sessions of this project (strata)\nab12  yak shaving\n</hook_context>' },
  ]),
  record('m3', '03', 'user', [{ text: 'rename the walrus module' }]),
  record('m4', '05', 'gemini', 'Looking at earlier sessions first.', {
    model: 'gemini-2.5-pro',
    toolCalls: [
      {
        id: 'c1',
        name: 'mcp_strata_search',
        displayName: 'search (strata MCP Server)',
        args: { query: 'walrus' },
        status: 'success',
        result: [{ functionResponse: { id: 'c1', name: 'mcp_strata_search', response: { output: 'no matches' } } }],
      },
    ],
  }),
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-gemini-ctx-'));
  const project = join(dir, '.gemini', 'tmp', 'walrus-app');
  mkdirSync(join(project, 'chats'), { recursive: true });
  writeFileSync(join(project, '.project_root'), '/work/walrus-app\n');
  file = join(project, 'chats', 'session-2026-05-04T10-00-7d1c0b2e.jsonl');
  writeFileSync(file, LINES.join('\n') + '\n');
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, paths: [file], env: { HOME: dir }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Gemini CLI injected context', () => {
  it('keeps the session and hook context as context, and the typed prompt as the one prompt', async () => {
    const out = await parseGeminiFile({ path: file } as never);
    expect(out.sessions[0]!.project).toBe('/work/walrus-app');
    const kinds = out.messages.map((m) => [m.key, m.kind, m.blocks[0]!.noise ?? null]);
    expect(kinds.slice(0, 3)).toEqual([
      ['m1', 'meta', 'session_context'],
      ['m2', 'meta', 'hook_context'],
      ['m3', 'prompt', null],
    ]);
    const call = out.messages[3]!.blocks.find((b) => b.kind === 'tool_call')!;
    expect(call.meta).toMatchObject({ mcpServer: 'strata' });
  });

  it('is listed under its project with its typed prompt as title and one prompt', () => {
    const [session] = listSessions(store.db, { project: '/work/walrus-app', limit: 5 }, dir);
    expect(session).toMatchObject({ project: '/work/walrus-app', title: 'rename the walrus module', prompts: 1 });
    const noise = store.db.prepare('SELECT kind, noise FROM blocks WHERE noise IS NOT NULL ORDER BY id').all();
    expect(noise).toEqual([
      { kind: 'text', noise: 'session_context' },
      { kind: 'text', noise: 'strata' },
      { kind: 'tool_call', noise: 'strata' },
      { kind: 'tool_result', noise: 'strata' },
    ]);
  });

  it('splits a part holding the hook context and then the typed prompt (Gemini CLI 0.61)', async () => {
    const combined = join(dir, 'combined.jsonl');
    const hook = '<hook_context># Latest sessions of this project (strata)\nab12  yak</hook_context>';
    writeFileSync(
      combined,
      [LINES[0], record('c1', '02', 'user', [{ text: `${hook}\n\nWhat did we find out about the cache?` }])].join('\n'),
    );
    const out = await parseGeminiFile({ path: combined } as never);
    expect(out.messages).toHaveLength(1);
    const message = out.messages[0]!;
    expect(message.kind).toBe('prompt');
    expect(message.blocks.map((b) => [b.text, b.noise ?? null])).toEqual([
      [hook, 'hook_context'],
      ['What did we find out about the cache?', null],
    ]);
  });

  it('counts a user record of function responses as tool output, not a prompt', async () => {
    const responses = join(dir, 'responses.jsonl');
    const response = { functionResponse: { id: 'c1', name: 'mcp_strata_search', response: { output: 'x' } } };
    writeFileSync(responses, [LINES[0], record('r1', '02', 'user', [response])].join('\n'));
    const out = await parseGeminiFile({ path: responses } as never);
    expect(out.messages.map((m) => [m.kind, m.blocks.map((b) => b.kind)])).toEqual([['tool_output', ['tool_result']]]);
  });

  it('corrects a session stored before, by the migration and the next ingest', async () => {
    store.db.prepare("UPDATE messages SET kind = 'prompt' WHERE kind = 'meta'").run();
    store.db.prepare('UPDATE sessions SET project = NULL, prompt_count = 3').run();
    store.db.prepare("UPDATE blocks SET noise = NULL WHERE kind = 'text'").run();
    store.db.pragma('user_version = 13');
    store.close();
    store = openStore(join(dir, 'data', 'strata.db'));
    const kinds = () => store.db.prepare('SELECT kind FROM messages ORDER BY seq').pluck().all().slice(0, 3);
    expect(kinds()).toEqual(['meta', 'meta', 'prompt']);
    expect(store.db.prepare('SELECT prompt_count FROM sessions').pluck().get()).toBe(1);
    await ingest({ store, paths: [file], env: { HOME: dir }, cwd: dir });
    expect(kinds()).toEqual(['meta', 'meta', 'prompt']);
    expect(store.db.prepare('SELECT project FROM sessions').pluck().get()).toBe('/work/walrus-app');
  });
});
