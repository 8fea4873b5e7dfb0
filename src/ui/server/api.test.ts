// The ui server's JSON API and guard, in one process: handlers over a store holding the ui fixture, and the
// HTTP server on 127.0.0.1 refusing foreign Host/Origin headers and every method but GET/HEAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../../core/ingest/ingest.js';
import { handleApi } from './api.js';
import { refusal } from './host-guard.js';
import { startUiServer, type UiServer } from './server.js';
import { fileHistory } from '../../core/file-history/file-history.js';
import { tempDir } from '../../../test/support/paths.js';
import { UI_SESSION, XSS_TEXT, writeUiFixture } from '../../../test/support/ui-fixture.js';
import type { SessionDetail } from '../../core/browse/session-detail.js';
import type { SessionListPage } from '../../core/browse/session-list.js';
import type { SessionOutline, SessionPage } from '../../core/browse/session-pages.js';
import type { Activity } from '../../core/browse/activity.js';
import type { SearchResult } from '../../core/retrieval/search.js';
import type { FileHistory } from '../../core/file-history/file-history.js';
import type { LogbookTimeline } from '../../core/browse/logbook-timeline.js';
import { emptyLogbook, type TimelineEvent } from '../../core/logbook/index.js';
import { writeLogbookRow } from '../../store/logbook-table.js';

let dir: string;
let store: Store;
const api = async <T>(name: string, params: Record<string, string> = {}) => {
  const r = await handleApi({ db: store.db, home: '/home/test' }, name, new URLSearchParams(params));
  return { status: r.status, body: r.body as T & { error?: string } };
};

beforeAll(async () => {
  dir = tempDir('strata-ui-api-');
  const root = writeUiFixture(dir);
  store = openStore(join(dir, 'data', 'strata.db'));
  await ingest({ store, paths: [root], env: {}, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('api', () => {
  it('lists sessions with totals, filters and validation', async () => {
    const page = await api<SessionListPage>('sessions', { text: 'login' });
    expect(page.status).toBe(200);
    expect(page.body.rows.map((r) => r.id)).toEqual([UI_SESSION]);
    expect(page.body.totals.sessions).toBe(1);
    expect((await api<SessionListPage>('sessions', { text: 'nothing like this' })).body.matching).toBe(0);
    expect((await api<SessionListPage>('sessions', { agent: 'codex' })).body.matching).toBe(0);
    expect((await api('sessions', { agent: 'nope' })).status).toBe(400);
    expect((await api('sessions', { sort: 'rowid; drop table x' })).status).toBe(400);
  });

  it('reads a session with diffs, usage per reply, errors marked and text as stored', async () => {
    const { status, body } = await api<SessionDetail>('session', { id: '7e57' });
    expect(status).toBe(200);
    expect(body.messages).toHaveLength(10);
    expect(body.messages[0]!.blocks[0]!.text).toBe(XSS_TEXT);
    const edit = body.messages[1]!.blocks.find((b) => b.toolName === 'Edit')!;
    expect(edit.hunks![0]!.lines).toEqual(['-const timeout = 150;', '+const timeout = 600;']);
    expect(body.messages[1]!.usage).toEqual({ input: 102, output: 22, cacheRead: 1000, cacheWrite: 0 });
    expect(body.messages[8]!.blocks[0]!.isError).toBe(true);
    expect(body.files.map((f) => f.path)).toEqual(['/repo/src/app.ts', '/repo/src/new.ts']);
    expect((await api('session', { id: 'ffffffff' })).status).toBe(404);
    expect((await api('session')).status).toBe(400);
  });

  it('sends a session a window at a time, with find over every message', async () => {
    const outline = await api<SessionOutline>('session-window', { id: '7e57', m: '10' });
    expect(outline.status).toBe(200);
    expect(outline.body.id).toBe(UI_SESSION);
    expect(outline.body.total).toBe(10);
    expect(outline.body.page.messages.map((m) => m.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outline.body).not.toHaveProperty('messages');
    const page = await api<SessionPage>('messages', { id: UI_SESSION, from: '8', to: '20' });
    expect(page.body.messages.map((m) => m.n)).toEqual([9, 10]);
    const found = await api<{ messages: number[] }>('find', { id: UI_SESSION, q: 'timeout = 600;' });
    expect(found.body.messages).toEqual([2, 6]);
    expect((await api('find', { id: UI_SESSION })).status).toBe(400);
    expect((await api('messages', { id: UI_SESSION, from: '-1' })).status).toBe(400);
    expect((await api('session-window', { id: 'ffffffff' })).status).toBe(404);
  });

  it('searches with the engine of strata search', async () => {
    const { body } = await api<SearchResult>('search', { q: 'retry loop', in: 'thinking' });
    expect(body.sessions.map((s) => s.id)).toEqual([UI_SESSION]);
    expect(body.sessions[0]!.hits[0]!.message).toBe(10);
    expect((await api('search', { q: '"unbalanced' })).status).toBeLessThan(500);
  });

  it('answers a file history and activity aggregates', async () => {
    const files = (await api<FileHistory>('files', { path: 'src/app.ts' })).body;
    expect(files.entries.map((e) => e.action).sort()).toEqual(['discussed', 'edited', 'read']);
    const activity = (await api<Activity>('activity')).body;
    expect(activity.byDay).toEqual([
      {
        key: '2026-11-20',
        sessions: 1,
        messages: 10,
        toolCalls: 4,
        tokens: activity.totals.tokens,
        cost: 0,
        unpricedTokens: activity.totals.tokens,
      },
    ]);
    expect(activity.byAgent.map((a) => a.key)).toEqual(['claude-code']);
  });

  it('has no endpoint that is not listed', async () => {
    expect((await api('constructor')).status).toBe(404);
    expect((await api('__proto__')).status).toBe(404);
  });
});

describe('logbook', () => {
  const generator = { provider: 'extractive', model: 'extractive-v1', template: 't', fingerprint: 'f' };
  const event = (
    timestamp: string,
    type: TimelineEvent['type'],
    content: string,
    session: string,
    message: number,
    extra: Partial<TimelineEvent> = {},
  ): TimelineEvent => ({
    timestamp,
    type,
    content,
    ...extra,
    source: { conversation_id: session, message_id: String(message), session, message, agent: 'claude-code' },
  });
  const saveLogbook = (workspace: string, timeline: TimelineEvent[], updatedAt: string) => {
    const doc = { ...emptyLogbook(workspace, updatedAt, generator), timeline };
    writeLogbookRow(store.db, {
      workspace,
      kind: 'project',
      data: JSON.stringify(doc),
      events: timeline.length,
      generatedAt: updatedAt,
      updatedAt,
    });
  };

  it('says there is none before a logbook is built', async () => {
    const { status, body } = await api<LogbookTimeline>('logbook');
    expect(status).toBe(200);
    expect(body).toMatchObject({ workspaces: [], workspace: null, events: [], total: 0 });
  });

  it('lists the workspaces and the events of one, newest first, filtered by type, time and words', async () => {
    saveLogbook(
      '/repo',
      [
        event('2026-11-20T09:00:02.000Z', 'decision', 'Raise the timeout to 600 ms', UI_SESSION, 2, {
          rationale: 'because the login form is slow',
          alternatives: ['a retry loop'],
        }),
        event('2026-11-20T09:00:09.000Z', 'bug', '`npm test` failed: Error: 1 test failed', UI_SESSION, 9, {
          code: 'npm test',
          resolution: 'fixed by editing src/app.ts',
        }),
        event('2026-10-01T00:00:00.000Z', 'fact', `A note holding ${XSS_TEXT}`, 'not-stored-session', 3),
      ],
      '2026-11-21T00:00:00.000Z',
    );
    saveLogbook(
      '/elsewhere',
      [event('2026-11-19T00:00:00.000Z', 'fact', 'Another project', UI_SESSION, 1)],
      '2026-11-22T00:00:00.000Z',
    );

    const all = (await api<LogbookTimeline>('logbook', { workspace: '/repo' })).body;
    expect(all.workspaces.map((w) => [w.workspace, w.events])).toEqual([
      ['/elsewhere', 1],
      ['/repo', 3],
    ]);
    expect(all.workspace).toBe('/repo');
    expect(all.byType).toEqual({ decision: 1, fact: 1, bug: 1 });
    expect(all.events.map((e) => [e.type, e.source.message])).toEqual([
      ['bug', 9],
      ['decision', 2],
      ['fact', 3],
    ]);
    expect(all.events[0]).toMatchObject({
      resolution: 'fixed by editing src/app.ts',
      sessionTitle: XSS_TEXT,
      sessionStored: true,
    });
    expect(all.events[2]).toMatchObject({
      content: `A note holding ${XSS_TEXT}`,
      sessionTitle: null,
      sessionStored: false,
    });

    // The fullest logbook, not the one built last; started in a logbook's folder, that one.
    expect((await api<LogbookTimeline>('logbook')).body.workspace).toBe('/repo');
    const inElsewhere = await handleApi(
      { db: store.db, home: null, cwd: '/elsewhere/src' },
      'logbook',
      new URLSearchParams(),
    );
    expect((inElsewhere.body as LogbookTimeline).workspace).toBe('/elsewhere');
    expect((await api<LogbookTimeline>('logbook', { project: '/repo/src/deep' })).body.workspace).toBe('/repo');
    const bugs = (await api<LogbookTimeline>('logbook', { workspace: '/repo', type: 'bug,fact' })).body;
    expect(bugs.events.map((e) => e.type)).toEqual(['bug', 'fact']);
    expect(bugs.total).toBe(3);
    expect(
      (await api<LogbookTimeline>('logbook', { workspace: '/repo', since: '2026-11-01' })).body.events,
    ).toHaveLength(2);
    expect(
      (await api<LogbookTimeline>('logbook', { workspace: '/repo', text: 'RETRY login' })).body.events.map(
        (e) => e.type,
      ),
    ).toEqual(['decision']);
    expect(
      (await api<LogbookTimeline>('logbook', { workspace: '/repo', text: 'editing' })).body.events.map((e) => e.type),
    ).toEqual(['bug']);
  });

  it('refuses a bad type or time with 400 and an unknown workspace with 404', async () => {
    expect((await api('logbook', { type: 'opinion' })).status).toBe(400);
    expect((await api('logbook', { since: 'yesterday-ish' })).status).toBe(400);
    const missing = await api('logbook', { workspace: '/nowhere' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/strata logbook --project DIR/);
    expect((await api('logbook', { project: '/other/place' })).status).toBe(404);
  });
});

describe('blame query', () => {
  it("finds edits by line in today's file and created files by their lines", () => {
    const today = 'line one\nconst timeout = 600;\nline three\n';
    const at2 = fileHistory(store.db, { path: '/repo/src/app.ts', line: 2, readCurrent: () => today });
    const edit = at2.entries.find((e) => e.action === 'edited')!;
    expect(edit.hunks[0]!.range).toEqual({ start: 2, end: 2 });
    expect(edit.hunks[0]!.touchesLine).toBe(true);
    const at3 = fileHistory(store.db, { path: '/repo/src/app.ts', line: 3, readCurrent: () => today });
    expect(at3.entries.some((e) => e.action === 'edited')).toBe(false);
    const created = fileHistory(store.db, { path: 'C:\\repo\\src\\new.ts', line: 2 });
    expect(created.entries.map((e) => [e.action, e.message])).toEqual([['created', 4]]);
    expect(fileHistory(store.db, { path: '/elsewhere/src/app.ts' }).entries).toEqual([]);
  });
});

describe('host guard', () => {
  it('accepts only its own host names and origins', () => {
    expect(refusal({ host: '127.0.0.1:4000' }, 4000)).toBeUndefined();
    expect(refusal({ host: 'localhost:4000', origin: 'http://localhost:4000' }, 4000)).toBeUndefined();
    expect(refusal({ host: 'evil.example:4000' }, 4000)).toMatch(/Host/);
    expect(refusal({ host: '127.0.0.1:4001' }, 4000)).toMatch(/Host/);
    expect(refusal({}, 4000)).toMatch(/Host/);
    expect(refusal({ host: '127.0.0.1:4000', origin: 'http://evil.example' }, 4000)).toMatch(/Origin/);
    expect(refusal({ host: '127.0.0.1:4000', origin: 'null' }, 4000)).toMatch(/Origin/);
  });
});

describe('server', () => {
  let server: UiServer;
  beforeAll(async () => {
    server = await startUiServer({ db: store.db, home: null, assetsDir: join(dir, 'no-assets') });
  });
  afterAll(() => server.close());

  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });

  it('listens on 127.0.0.1 at a free port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(server.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('serves the API with a content security policy', async () => {
    const r = await send('GET', '/api/sessions');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).matching).toBe(1);
    expect(r.headers['content-security-policy']).toMatch(/script-src 'self'/);
  });

  it('refuses a foreign Host or Origin with 403, and writes with 405', async () => {
    expect((await send('GET', '/api/sessions', { Host: 'attacker.example' })).status).toBe(403);
    expect((await send('GET', '/api/sessions', { Origin: 'http://attacker.example' })).status).toBe(403);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
      expect((await send(method, '/api/sessions')).status).toBe(405);
  });

  it('answers 404 for unknown paths and says when the front end is not built', async () => {
    expect((await send('GET', '/etc/passwd')).status).toBe(404);
    expect((await send('GET', '/../../etc/passwd')).status).toBe(404);
    const index = await send('GET', '/');
    expect(index.status).toBe(500);
    expect(index.body).toMatch(/npm run build/);
  });

  it('answers a path starting with // with 404 and a span too long for a date with 400, not 500', async () => {
    expect((await send('GET', '//')).status).toBe(404);
    expect((await send('GET', '//evil.example/api/sessions')).status).toBe(404);
    const since = await send('GET', '/api/sessions?since=99999999999999d');
    expect(since.status).toBe(400);
    expect(JSON.parse(since.body).error).toMatch(/^invalid time "99999999999999d"/);
  });
});

// Last: it adds a session to the store the other tests read.
describe('listing reuse', () => {
  it('sees sessions ingested after a listing was read', async () => {
    expect((await api<SessionListPage>('sessions')).body.matching).toBe(1);
    const other = tempDir('strata-ui-api-more-');
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(join(other, 'p'), { recursive: true });
    const id = '7e57c0de-0000-4000-8000-000000000002';
    writeFileSync(
      join(other, 'p', `${id}.jsonl`),
      JSON.stringify({
        type: 'user',
        sessionId: id,
        uuid: 'x1',
        timestamp: '2026-11-21T09:00:00.000Z',
        cwd: '/repo',
        message: { role: 'user', content: 'a second session' },
      }) + '\n',
    );
    const second = openStore(join(dir, 'data', 'strata.db'));
    await ingest({ store: second, paths: [join(other, 'p')], env: {}, cwd: other });
    second.close();
    expect((await api<SessionListPage>('sessions')).body.matching).toBe(2);
    rmSync(other, { recursive: true, force: true });
  });
});
