// End-to-end: strata's own output found in a transcript (its MCP calls and results, the context its hook
// injected) is stored but searched only with `--in noise`, so the real source of a word ranks first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli, type CliResult } from './support/cli.js';

let home: string;
const strata = async (...args: string[]): Promise<CliResult> =>
  await runCli(args, { HOME: join(home, 'home'), STRATA_HOME: join(home, 'data') }, { cwd: home });

const cc = (type: string, uuid: string, ts: string, message: object, extra: object = {}) =>
  JSON.stringify({ type, uuid, sessionId: 'cc-echo', timestamp: ts, cwd: '/work/app', message, ...extra });

// A session that asked strata for an earlier one: the answer quotes that session's words.
const CLAUDE_ECHO = [
  cc('user', 'u1', '2026-03-02T10:00:00Z', { role: 'user', content: 'what did we decide about the pelican cache?' }),
  cc('assistant', 'a1', '2026-03-02T10:00:05Z', {
    id: 'msg_1',
    role: 'assistant',
    model: 'claude-x',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__strata__search', input: { query: 'zeppelin quartz' } }],
  }),
  cc('user', 'u2', '2026-03-02T10:00:06Z', {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '1 session: zeppelin quartz lockfile leak, albatross' },
    ],
  }),
  cc('assistant', 'a2', '2026-03-02T10:00:09Z', {
    id: 'msg_2',
    role: 'assistant',
    model: 'claude-x',
    content: [{ type: 'text', text: 'The earlier session settled the pelican cache question.' }],
  }),
];

const cx = (ts: string, type: string, payload: object) => JSON.stringify({ timestamp: ts, type, payload });
const CODEX_ID = '019c0000-aaaa-7bbb-8ccc-eeeeeeeeeeee';
// A Codex session started with strata's injected context, then a typed prompt.
const CODEX_ECHO = [
  cx('2026-03-03T10:00:00Z', 'session_meta', { id: CODEX_ID, timestamp: '2026-03-03T10:00:00Z', cwd: '/work/app' }),
  cx('2026-03-03T10:00:01Z', 'response_item', {
    type: 'message',
    role: 'developer',
    content: [
      {
        type: 'input_text',
        text: '# Project logbook (strata)\nProject logbook: /work/app\n- decision: zeppelin quartz lockfile leak fixed',
      },
    ],
  }),
  cx('2026-03-03T10:00:02Z', 'response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'tidy the marmot module' }],
  }),
];

// The real source of the words.
const SOURCE = [
  JSON.stringify({
    type: 'user',
    uuid: 's1',
    sessionId: 'cc-source',
    timestamp: '2026-03-01T09:00:00Z',
    cwd: '/work/app',
    message: { role: 'user', content: 'the zeppelin quartz lockfile leak happens after every ingest' },
  }),
];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'strata-echo-'));
  const project = join(home, 'home', '.claude', 'projects', '-work-app');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'cc-source.jsonl'), SOURCE.join('\n') + '\n');
  writeFileSync(join(project, 'cc-echo.jsonl'), CLAUDE_ECHO.join('\n') + '\n');
  const codex = join(home, 'home', '.codex', 'sessions', '2026', '03', '03');
  mkdirSync(codex, { recursive: true });
  writeFileSync(join(codex, `rollout-2026-03-03T10-00-00-${CODEX_ID}.jsonl`), CODEX_ECHO.join('\n') + '\n');
  expect((await strata('ingest')).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('strata echoes', () => {
  it('ranks the real source first, not an echo of it', async () => {
    const r = await strata('search', 'zeppelin quartz', '--json');
    expect(r.code).toBe(0);
    const sessions = (JSON.parse(r.stdout) as { sessions: unknown[] }).sessions;
    expect(sessions).toHaveLength(1);
    expect(JSON.stringify(sessions[0])).toContain('cc-source');
  });

  it('finds a word only strata said with --in noise, and says so without it', async () => {
    for (const [word, session] of [
      ['decision', CODEX_ID],
      ['albatross', 'cc-echo'],
    ]) {
      const hidden = await strata('search', word!);
      expect(hidden.code).toBe(1);
      expect(hidden.stderr).toMatch(/no matches in messages; 1 in noise — add --in noise/);
      const found = await strata('search', word!, '--in', 'noise', '--json');
      expect(found.code).toBe(0);
      expect(found.stdout).toContain(session);
    }
  });

  it('keeps the echoes out of titles and prompt counts', async () => {
    const r = await strata('sessions', '--json');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tidy the marmot module');
    expect(r.stdout).not.toContain('# Project logbook');
  });

  it('marks the echoes of a store written before they were recognised', async () => {
    const db = new Database(join(home, 'data', 'strata.db'));
    const marked = db.prepare("UPDATE blocks SET noise = NULL WHERE noise = 'strata'").run().changes;
    expect(marked).toBe(3);
    expect((await strata('search', 'albatross')).code).toBe(0);
    db.pragma('user_version = 13');
    db.close();
    const after = await strata('search', 'zeppelin quartz', '--json');
    expect(JSON.parse(after.stdout).sessions).toHaveLength(1);
    expect((await strata('search', 'albatross')).code).toBe(1);
  });
});
