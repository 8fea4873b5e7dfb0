// Tests the OpenCode adapter: a database built here on the published schema (counts computed from the
// inserted records), read-only access while another connection writes, per-session change detection,
// malformed and unknown records, the legacy storage/ tree, and the Markdown export fixture.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ParseOutput } from '../../shared/model.js';
import { opencodeAdapter } from './index.js';
import { OpenCodeTestDb, assistantInfo, userInfo } from '../../../test/support/opencode-test-db.js';

const T0 = 1_750_000_000_000;
const CWD = '/home/dev/webapp';

interface SpecMessage {
  id: string;
  info: unknown;
  parts: unknown[];
}
interface SpecSession {
  id: string;
  title: string;
  parentId?: string;
  messages: SpecMessage[];
}

const SPEC: SpecSession[] = [
  {
    id: 'ses_a',
    title: 'Fix login bug',
    messages: [
      {
        id: 'msg_a1',
        info: userInfo(T0),
        parts: [
          { type: 'text', text: 'the login form rejects valid emails' },
          { type: 'file', mime: 'image/png', filename: 'shot.png', url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'text', text: 'Called the Read tool with {"filePath":"src/login.ts"}', synthetic: true },
        ],
      },
      {
        id: 'msg_a2',
        info: assistantInfo(T0 + 1000, 'msg_a1', CWD),
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'The regex is probably too strict.', time: { start: T0 + 1001 } },
          {
            type: 'tool',
            tool: 'read',
            callID: 'call_1',
            state: {
              status: 'completed',
              input: { filePath: 'src/login.ts' },
              output: 'const EMAIL = /^[a-z]+@/',
              title: 'src/login.ts',
              metadata: {},
              time: { start: 1, end: 2 },
            },
          },
          {
            type: 'tool',
            tool: 'bash',
            callID: 'call_2',
            state: {
              status: 'error',
              input: { command: 'npm test' },
              error: 'exit code 1',
              time: { start: 3, end: 4 },
            },
          },
          {
            type: 'tool',
            tool: 'edit',
            callID: 'call_3',
            state: { status: 'running', input: { filePath: 'src/login.ts' }, time: { start: 5 } },
          },
          { type: 'text', text: 'Fixed the email regex.' },
          {
            type: 'step-finish',
            reason: 'stop',
            cost: 0.01,
            tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
          },
        ],
      },
    ],
  },
  {
    id: 'ses_b',
    title: 'Explore tests (subagent)',
    parentId: 'ses_a',
    messages: [
      { id: 'msg_b1', info: userInfo(T0 + 5000), parts: [{ type: 'text', text: 'list the test files' }] },
      {
        id: 'msg_b2',
        info: assistantInfo(T0 + 6000, 'msg_b1', CWD),
        parts: [{ type: 'text', text: 'tests/login.test.ts' }],
      },
      { id: 'msg_b3', info: userInfo(T0 + 7000), parts: [{ type: 'compaction', auto: true }] },
      {
        id: 'msg_b4',
        info: assistantInfo(T0 + 8000, 'msg_b3', CWD, { summary: true }),
        parts: [{ type: 'text', text: 'Summary: listed tests.' }],
      },
    ],
  },
];

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'strata-opencode-'));
}

function buildDb(path: string, spec = SPEC, options: { wal?: boolean } = {}): OpenCodeTestDb {
  const db = new OpenCodeTestDb(path, options);
  db.project('prj_1', CWD);
  spec.forEach((s, si) => {
    db.session({
      id: s.id,
      projectId: 'prj_1',
      directory: CWD,
      title: s.title,
      ...(s.parentId ? { parentId: s.parentId } : {}),
      time: T0 + si,
    });
    s.messages.forEach((m, mi) => {
      db.message(s.id, m.id, m.info, T0 + si * 100 + mi);
      m.parts.forEach((p, pi) =>
        db.part(s.id, m.id, `prt_${m.id}_${String(pi).padStart(3, '0')}`, p, T0 + si * 100 + mi),
      );
    });
  });
  return db;
}

const parse = (path: string, previousState?: unknown) =>
  opencodeAdapter.parseFile({ path, ...(previousState !== undefined ? { previousState } : {}) }) as ParseOutput;

function allParts(spec: SpecSession[]) {
  return spec.flatMap((s) => s.messages.flatMap((m) => m.parts as Array<Record<string, unknown>>));
}

describe('opencode.db', () => {
  it('parses sessions, messages, tool calls and results with counts taken from the inserted records', () => {
    const path = join(tmp(), 'opencode.db');
    buildDb(path).close();
    const out = parse(path);
    const parts = allParts(SPEC);
    const toolParts = parts.filter((p) => p.type === 'tool');
    const finished = toolParts.filter((p) =>
      ['completed', 'error'].includes(String((p.state as Record<string, unknown>).status)),
    );
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(out.notSession).toBeUndefined();
    expect(out.malformed).toEqual([]);
    expect(out.sessions).toHaveLength(SPEC.length);
    // A message counts when it has a content part (a bare compaction request has none).
    const content = new Set(['text', 'reasoning', 'tool', 'file', 'subtask']);
    const withContent = SPEC.flatMap((s) => s.messages).filter((m) =>
      (m.parts as Array<{ type: string }>).some((p) => content.has(p.type)),
    );
    expect(out.messages).toHaveLength(withContent.length);
    expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(toolParts.length);
    expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(finished.length);
    expect(out.skipped).toEqual({ 'part:step-start': 1, 'part:step-finish': 1, 'message:empty': 1 });
    expect(out.partial).toBe(false);

    const [a, b] = out.sessions;
    expect(a).toMatchObject({ key: 'ses_a', project: CWD, title: 'Fix login bug' });
    expect(b).toMatchObject({ key: 'ses_b', parentKey: 'ses_a', relation: 'subagent' });
    const byKey = new Map(out.messages.map((m) => [m.key, m]));
    const user = byKey.get('msg_a1')!;
    expect(user).toMatchObject({ role: 'user', kind: 'prompt', timestamp: new Date(T0).toISOString(), line: 1 });
    expect(user.blocks[1]).toEqual({ kind: 'image', text: '', meta: { mime: 'image/png', filename: 'shot.png' } });
    expect(user.blocks[2]!.noise).toBe('synthetic');
    const reply = byKey.get('msg_a2')!;
    expect(reply.blocks.map((x) => x.kind)).toEqual([
      'thinking',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'tool_call',
      'text',
    ]);
    expect(reply.blocks[2]).toMatchObject({
      toolCallId: 'call_1',
      toolName: 'read',
      isError: false,
      text: 'const EMAIL = /^[a-z]+@/',
    });
    expect(reply.blocks[4]).toMatchObject({ toolCallId: 'call_2', isError: true, text: 'exit code 1' });
    expect(reply.blocks[1]).toMatchObject({
      toolInput: { filePath: 'src/login.ts' },
      text: '{"filePath":"src/login.ts"}',
    });
    expect(reply.usage).toEqual({
      apiMessageId: 'msg_a2',
      model: 'claude-sonnet-4',
      inputTokens: 1200,
      outputTokens: 350,
      cacheReadTokens: 4000,
      cacheWriteTokens: 100,
    });
    expect(byKey.has('msg_b3')).toBe(false);
    expect(byKey.get('msg_b4')).toMatchObject({
      kind: 'compaction',
      blocks: [{ kind: 'summary', text: 'Summary: listed tests.' }],
    });
  });

  it('never writes the database and reads it while another connection holds a write transaction (WAL)', () => {
    const path = join(tmp(), 'opencode.db');
    const builder = buildDb(path);
    builder.close();
    const digest = () => createHash('sha256').update(readFileSync(path)).digest('hex');
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.exec('BEGIN IMMEDIATE');
    writer
      .prepare(
        "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_x', 'ses_a', 1, 1, " +
          '\'{"role":"user"}\')',
      )
      .run();
    const before = digest();
    const out = parse(path);
    expect(out.messages.some((m) => m.key === 'msg_x')).toBe(false);
    expect(out.sessions).toHaveLength(2);
    expect(opencodeAdapter.fingerprint!({ path })).toMatch(/^v1:/);
    expect(digest()).toBe(before);
    writer.exec('COMMIT');
    writer.close();
  });

  it('reads a rollback-journal database while a writer holds its reserved lock', () => {
    const path = join(tmp(), 'opencode.db');
    buildDb(path, SPEC, { wal: false }).close();
    const writer = new Database(path);
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("UPDATE session SET title = 'renamed' WHERE id = 'ses_a'").run();
    const out = parse(path);
    expect(out.sessions.find((s) => s.key === 'ses_a')?.title).toBe('Fix login bug');
    writer.exec('ROLLBACK');
    writer.close();
  });

  it('fails with LOCKED (keeping stored data) when a writer holds an exclusive lock past the busy timeout', () => {
    const path = join(tmp(), 'opencode.db');
    buildDb(path, SPEC, { wal: false }).close();
    const writer = new Database(path);
    writer.pragma('locking_mode = EXCLUSIVE');
    writer.prepare("UPDATE session SET title = 'x' WHERE id = 'ses_a'").run();
    expect(() => parse(path)).toThrow(expect.objectContaining({ code: 'LOCKED' }));
    writer.close();
  });

  it('re-parses only sessions whose MAX(time_updated) changed, and fully after a deletion', () => {
    const path = join(tmp(), 'opencode.db');
    const db = buildDb(path);
    const first = parse(path);
    const fp1 = opencodeAdapter.fingerprint!({ path });
    const again = parse(path, first.state);
    expect(again).toMatchObject({ partial: true, sessions: [], messages: [] });
    expect(opencodeAdapter.fingerprint!({ path })).toBe(fp1);

    db.part('ses_b', 'msg_b2', 'prt_msg_b2_999', { type: 'text', text: 'and tests/signup.test.ts' }, T0 + 99_999);
    expect(opencodeAdapter.fingerprint!({ path })).not.toBe(fp1);
    const changed = parse(path, again.state);
    expect(changed.partial).toBe(true);
    expect(changed.sessions.map((s) => s.key)).toEqual(['ses_b']);
    expect(changed.messages.map((m) => m.key)).toEqual(['msg_b1', 'msg_b2', 'msg_b4']);

    db.db.prepare("DELETE FROM session WHERE id = 'ses_b'").run();
    const afterDelete = parse(path, changed.state);
    expect(afterDelete.partial).toBe(false);
    expect(afterDelete.sessions.map((s) => s.key)).toEqual(['ses_a']);
    db.close();
  });

  it('reports malformed data, counts unknown part types and roles, and never throws', () => {
    const path = join(tmp(), 'opencode.db');
    const db = buildDb(path, []);
    db.session({ id: 'ses_m', projectId: 'prj_1', directory: CWD, title: 'messy' });
    db.message('ses_m', 'msg_1', '{"role":"user","time":{"created":', T0); // truncated JSON
    db.message('ses_m', 'msg_2', userInfo(T0 + 1), T0 + 1);
    db.part('ses_m', 'msg_2', 'prt_1', 'not json', T0 + 1);
    db.part('ses_m', 'msg_2', 'prt_2', { type: 'hologram', payload: 1 }, T0 + 1);
    db.part('ses_m', 'msg_2', 'prt_3', { type: 'text', text: 'still here' }, T0 + 1);
    db.part('ses_m', 'msg_2', 'prt_4', { type: 'tool', callID: 'c' }, T0 + 1);
    db.message('ses_m', 'msg_3', { role: 'narrator', time: { created: T0 + 2 } }, T0 + 2);
    db.close();
    const out = parse(path);
    expect(out.malformed.map((m) => [m.line, m.reason.split(':')[0]])).toEqual([
      [1, 'message msg_1'],
      [2, 'part prt_1 of message msg_2'],
      [2, 'part prt_4'],
    ]);
    expect(out.skipped).toEqual({ 'part:hologram': 1, 'message:narrator': 1 });
    expect(out.messages.map((m) => m.key)).toEqual(['msg_2']);
    expect(out.messages[0]!.blocks).toEqual([{ kind: 'text', text: 'still here' }]);
  });

  it('returns notSession for other SQLite databases and for corrupt or truncated files', () => {
    const dir = tmp();
    const other = join(dir, 'other.db');
    new Database(other).exec('CREATE TABLE notes (id integer)');
    expect(parse(other).notSession).toMatch(/without the OpenCode tables/);
    const full = join(dir, 'opencode.db');
    buildDb(full).close();
    const truncated = join(tmp(), 'opencode.db');
    writeFileSync(truncated, readFileSync(full).subarray(0, 1500));
    expect(parse(truncated).notSession).toMatch(/cannot read as an OpenCode database/);
    const junk = join(tmp(), 'opencode.db');
    writeFileSync(junk, 'this is not a database');
    expect(parse(junk).notSession).toMatch(/cannot open|without the OpenCode tables|not a database/);
    expect(opencodeAdapter.fingerprint!({ path: junk })).toBeUndefined();
  });
});

describe('opencode legacy storage and paths', () => {
  function writeJson(path: string, value: unknown): void {
    mkdirSync(resolve(path, '..'), { recursive: true });
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  }

  it('parses a session from the storage/ JSON tree', () => {
    const root = tmp();
    const st = join(root, 'storage');
    const sessionFile = join(st, 'session', 'prj_1', 'ses_l.json');
    writeJson(sessionFile, {
      id: 'ses_l',
      projectID: 'prj_1',
      directory: CWD,
      title: 'legacy',
      version: '0.5.0',
      time: { created: T0, updated: T0 + 10 },
    });
    writeJson(join(st, 'message', 'ses_l', 'msg_2.json'), {
      id: 'msg_2',
      sessionID: 'ses_l',
      ...assistantInfo(T0 + 2, 'msg_1', CWD),
    });
    writeJson(join(st, 'message', 'ses_l', 'msg_1.json'), { id: 'msg_1', sessionID: 'ses_l', ...userInfo(T0 + 1) });
    writeJson(join(st, 'part', 'msg_1', 'prt_1.json'), { id: 'prt_1', type: 'text', text: 'hello legacy' });
    writeJson(join(st, 'part', 'msg_2', 'prt_1.json'), {
      id: 'prt_1',
      type: 'tool',
      tool: 'grep',
      callID: 'c1',
      state: { status: 'completed', input: { pattern: 'x' }, output: 'found' },
    });
    writeJson(join(st, 'part', 'msg_2', 'prt_2.json'), '{"id":"prt_2","type":"te'); // truncated part
    expect(opencodeAdapter.discover(root)).toEqual([sessionFile]);
    expect(opencodeAdapter.detect(sessionFile, '{"id":"ses_l"')).toBe(true);
    const out = parse(sessionFile);
    expect(out.sessions).toEqual([expect.objectContaining({ key: 'ses_l', project: CWD, title: 'legacy' })]);
    expect(out.messages.map((m) => [m.key, m.kind])).toEqual([
      ['msg_1', 'prompt'],
      ['msg_2', 'response'],
    ]);
    expect(out.messages[1]!.blocks.map((b) => b.kind)).toEqual(['tool_call', 'tool_result']);
    expect(out.malformed).toHaveLength(1);
    const fp = opencodeAdapter.fingerprint!({ path: sessionFile });
    writeJson(join(st, 'part', 'msg_2', 'prt_3.json'), { id: 'prt_3', type: 'text', text: 'done' });
    expect(opencodeAdapter.fingerprint!({ path: sessionFile })).not.toBe(fp);

    writeJson(join(root, 'storage', 'session', 'prj_1', 'ses_bad.json'), '{"id": "ses_bad", "ti');
    expect(parse(join(root, 'storage', 'session', 'prj_1', 'ses_bad.json')).malformed).toHaveLength(1);
    buildDb(join(root, 'opencode.db')).close();
    buildDb(join(root, 'opencode-beta.db')).close();
    expect(opencodeAdapter.discover(root)).toEqual([join(root, 'opencode-beta.db'), join(root, 'opencode.db')]);
  });

  it('reports the Markdown export fixture as not a session', () => {
    const path = resolve(process.cwd(), '../shared/fixtures/real/opencode/hstry/session.md');
    const out = parse(path);
    expect(out.notSession).toMatch(/Markdown export/);
    expect(out.sessions).toEqual([]);
    expect(opencodeAdapter.detect(path, readFileSync(path, 'utf8').slice(0, 4096))).toBe(false);
  });

  it('uses XDG_DATA_HOME, else ~/.local/share, and detects the database by its header', () => {
    expect(opencodeAdapter.defaultRoots({ XDG_DATA_HOME: '/x/data', HOME: '/h' })).toEqual(['/x/data/opencode']);
    expect(opencodeAdapter.defaultRoots({ HOME: '/h' })).toEqual(['/h/.local/share/opencode']);
    expect(opencodeAdapter.detect('/h/.local/share/opencode/opencode.db', 'SQLite format 3\u0000')).toBe(true);
    expect(opencodeAdapter.detect('/h/.local/share/opencode/opencode.db', 'hello')).toBe(false);
    expect(opencodeAdapter.detect('/h/.local/share/opencode/opencode-beta.db', 'SQLite format 3\u0000')).toBe(true);
    expect(opencodeAdapter.detect('/h/.local/share/opencode/opencode.db-wal', 'SQLite format 3\u0000')).toBe(false);
  });
});
