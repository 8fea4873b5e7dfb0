// OpenCode shapes beyond the current published schema: an early drizzle schema (message.created_at, parts without
// time columns), part types newer than this parser, retry parts, non-string tool output and tool attachments.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { partToBlocks } from './schema.js';
import { opencodeFingerprint, parseOpenCodeSource } from './parser.js';

const tmp = mkdtempSync(join(tmpdir(), 'strata-opencode-variants-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('opencode: early database schema', () => {
  it('reads a database whose message table has created_at and whose parts have no time columns', () => {
    const path = join(tmp, 'opencode.db');
    const db = new Database(path);
    db.exec(`
      CREATE TABLE session (id text PRIMARY KEY, project_id text, parent_id text, directory text, title text,
        version text, time_created integer, time_updated integer);
      CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, created_at integer NOT NULL,
        data text NOT NULL);
      CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, data text NOT NULL);
    `);
    db.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?)').run('ses_1', 'p', '/w', 'T', '0.5', 1, 2);
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('msg_1', 'ses_1', 10, '{"role":"user"}');
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('msg_2', 'ses_1', 20, '{"role":"assistant"}');
    db.prepare('INSERT INTO part VALUES (?, ?, ?, ?)').run('prt_1', 'msg_1', 'ses_1', '{"type":"text","text":"q"}');
    db.prepare('INSERT INTO part VALUES (?, ?, ?, ?)').run('prt_2', 'msg_2', 'ses_1', '{"type":"text","text":"a"}');
    db.close();
    const out = parseOpenCodeSource({ path });
    expect(out.notSession).toBeUndefined();
    expect(out.sessions.map((s) => s.key)).toEqual(['ses_1']);
    expect(out.messages.map((m) => [m.role, m.blocks[0]?.text, m.timestamp])).toEqual([
      ['user', 'q', '1970-01-01T00:00:00.010Z'],
      ['assistant', 'a', '1970-01-01T00:00:00.020Z'],
    ]);
    expect(opencodeFingerprint({ path })).toBeDefined();
  });
});

describe('opencode: part shapes', () => {
  it('keeps a part of an unknown type that carries text, and counts one without text by type', () => {
    expect(partToBlocks({ type: 'note-v9', text: 'future text' })).toEqual({
      blocks: [{ kind: 'text', text: 'future text', meta: { partType: 'note-v9' } }],
    });
    expect(partToBlocks({ type: 'step-start' })).toEqual({ skipped: 'part:step-start' });
  });

  it('keeps the error of a retry part as a system block', () => {
    const result = partToBlocks({
      type: 'retry',
      attempt: 2,
      error: { name: 'APIError', data: { message: 'rate limited', isRetryable: true } },
    });
    expect(result).toEqual({
      blocks: [{ kind: 'system', text: 'rate limited', meta: { retry: true, attempt: 2, error: 'APIError' } }],
    });
  });

  it('renders non-string tool output as JSON and keeps attachment metadata without data URLs', () => {
    const result = partToBlocks({
      type: 'tool',
      tool: 'screenshot',
      callID: 'c1',
      state: {
        status: 'completed',
        input: {},
        output: { rows: 3 },
        title: 'shot',
        attachments: [{ type: 'file', mime: 'image/png', filename: 'a.png', url: 'data:image/png;base64,AAAA' }],
      },
    });
    expect('blocks' in result && result.blocks[1]).toMatchObject({
      kind: 'tool_result',
      text: '{"rows":3}',
      meta: { title: 'shot', attachments: [{ mime: 'image/png', filename: 'a.png' }] },
    });
    expect(JSON.stringify(result)).not.toContain('AAAA');
  });
});
