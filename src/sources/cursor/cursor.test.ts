// Real Cursor databases (test/fixtures/real-extra/cursor, provenance in SOURCES.tsv): a November 2024
// workspace database holding its own chats, a February 2025 store with inline conversations, an August 2025
// one with bubble rows, both with workspace databases naming the folder, and a July 2026 one with
// `workspaceIdentifier`. Every count is recounted here in SQL.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { cursorAdapter } from './index.js';
import { parseCursorDb } from './parser.js';
import { cursorDefaultRoots } from './paths.js';

const ROOT = join(REAL_EXTRA, 'cursor');
const db = (name: string) => join(ROOT, name, 'User', 'globalStorage', 'state.vscdb');

// Each composer's bubbles in conversation order: bubble rows named by the headers, or the inline array.
const BUBBLES = `
  WITH composers AS (SELECT substr(key, 14) AS id, value FROM cursorDiskKV
                      WHERE key LIKE 'composerData:%' AND json_valid(value)),
  bubbles AS (
    SELECT c.id, json(b.value) AS bubble FROM composers c, json_each(c.value, '$.fullConversationHeadersOnly') h
      JOIN cursorDiskKV b ON b.key = 'bubbleId:' || c.id || ':' || json_extract(h.value, '$.bubbleId')
    UNION ALL
    SELECT c.id, i.value FROM composers c, json_each(c.value, '$.conversation') i)`;
const TEXT = (path: string) => `trim(coalesce(json_extract(bubble, '${path}'), '')) <> ''`;

function recount(path: string) {
  const sql = new Database(path, { readonly: true });
  try {
    const row = sql
      .prepare(
        `${BUBBLES} SELECT
          COUNT(DISTINCT id) AS sessions,
          SUM(json_extract(bubble, '$.type') = 1 AND ${TEXT('$.text')}) AS prompts,
          SUM(json_extract(bubble, '$.type') = 2 AND (${TEXT('$.text')} OR ${TEXT('$.thinking.text')}
              OR json_extract(bubble, '$.toolFormerData.name') IS NOT NULL)) AS replies,
          SUM(json_extract(bubble, '$.toolFormerData.name') IS NOT NULL) AS calls,
          SUM(json_extract(bubble, '$.toolFormerData.name') IN ('run_terminal_cmd', 'run_terminal_command_v2'))
            AS commands
         FROM bubbles WHERE json_extract(bubble, '$.type') = 1 AND ${TEXT('$.text')}
            OR json_extract(bubble, '$.type') = 2`,
      )
      .get() as { sessions: number; prompts: number; replies: number; calls: number; commands: number };
    const titles: unknown[] = sql
      .prepare(`${BUBBLES} SELECT DISTINCT json_extract(c.value, '$.name') AS name FROM bubbles
                JOIN composers c USING (id) ORDER BY name`)
      .pluck()
      .all();
    return { ...row, titles };
  } finally {
    sql.close();
  }
}

async function stats(path: string) {
  const dir = tempDir('strata-cursor-');
  const store = openStore(join(dir, 'strata.db'));
  try {
    const report = await ingest({ store, paths: [path], adapters: [cursorAdapter], env: {}, cwd: dir });
    expect(report.problems).toEqual([]);
    return store.db
      .prepare(
        'SELECT s.project, t.* FROM sessions s JOIN session_stats t ON t.session_id = s.id ORDER BY s.external_id',
      )
      .all() as Array<Record<string, unknown>>;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Cursor state.vscdb (real files)', () => {
  for (const name of ['meleesim', 'fedora-hyprland', 'omarchy']) {
    it(`${name}: sessions, prompts, replies, tool calls and titles match a SQL recount`, () => {
      const path = db(name);
      const expected = recount(path);
      const out = parseCursorDb(path);
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(expected.sessions);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(expected.prompts);
      expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(expected.replies);
      const calls = out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call');
      expect(calls).toHaveLength(expected.calls);
      expect(out.sessions.map((s) => s.title).sort()).toEqual(expected.titles);
      for (const m of out.messages) expect(Number.isNaN(Date.parse(m.timestamp ?? ''))).toBe(false);
    });
  }

  it('reads without leaving -wal or -shm files beside the database', () => {
    for (const name of ['meleesim', 'fedora-hyprland', 'omarchy']) {
      parseCursorDb(db(name));
      const dir = join(ROOT, name, 'User', 'globalStorage');
      expect(readdirSync(dir)).toEqual(['state.vscdb']);
      expect(existsSync(`${db(name)}-journal`)).toBe(false);
    }
  });

  it('reads the chat panel tabs and inline composers a November 2024 workspace database holds', () => {
    const path = join(
      ROOT,
      'mobilechat',
      'User',
      'workspaceStorage',
      'f87f6e0b2cf1ae8645cc0c5ffaa99529',
      'state.vscdb',
    );
    const sql = new Database(path, { readonly: true });
    const expected = sql
      .prepare(
        `WITH tabs AS (SELECT t.value AS tab FROM ItemTable i, json_each(i.value, '$.tabs') t
                        WHERE i.key = 'workbench.panel.aichat.view.aichat.chatdata'),
              tab_bubbles AS (SELECT b.value AS b FROM tabs, json_each(tab, '$.bubbles') b),
              composers AS (SELECT c.value AS c FROM ItemTable i, json_each(i.value, '$.allComposers') c
                             WHERE i.key = 'composer.composerData'
                               AND json_array_length(c.value, '$.conversation') > 0),
              conv AS (SELECT b.value AS b FROM composers, json_each(c, '$.conversation') b)
         SELECT (SELECT COUNT(*) FROM tabs) + (SELECT COUNT(*) FROM composers) AS sessions,
                (SELECT COUNT(*) FROM tab_bubbles WHERE json_extract(b, '$.type') = 'user'
                    AND trim(coalesce(json_extract(b, '$.text'), '')) <> '')
              + (SELECT COUNT(*) FROM conv WHERE json_extract(b, '$.type') = 1
                    AND trim(coalesce(json_extract(b, '$.text'), '')) <> '') AS prompts,
                (SELECT COUNT(*) FROM tab_bubbles WHERE json_extract(b, '$.type') = 'ai')
              + (SELECT COUNT(*) FROM conv WHERE json_extract(b, '$.type') = 2) AS replies,
                (SELECT json_group_array(json_extract(tab, '$.chatTitle')) FROM tabs) AS titles`,
      )
      .get() as { sessions: number; prompts: number; replies: number; titles: string };
    sql.close();
    const out = parseCursorDb(path);
    expect(out.malformed).toEqual([]);
    expect(out.sessions).toHaveLength(expected.sessions);
    expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(expected.prompts);
    expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(expected.replies);
    const tabTitles = out.sessions.filter((s) => s.meta?.mode === 'chat panel').map((s) => s.title);
    expect(tabTitles).toEqual(JSON.parse(expected.titles));
  });

  it('takes the project from the workspace database (2025) or workspaceIdentifier (2026)', async () => {
    const fedora = await stats(db('fedora-hyprland'));
    expect(fedora.map((r) => r.project)).toEqual(['/home/olivers/.config', '/home/olivers/.config']);
    const meleesim = await stats(db('meleesim'));
    expect(meleesim.map((r) => r.project)).toEqual(['/home/zen/Documents/EssenceMC/MeeleeSim']);
    const omarchy = await stats(db('omarchy'));
    expect(omarchy.map((r) => r.project)).toEqual(['/home/voz/codes/training/java/src']);
  });

  it('counts shell commands and edited files from the tool calls', async () => {
    const sql = new Database(db('omarchy'), { readonly: true });
    const edited = sql
      .prepare(
        `SELECT COUNT(DISTINCT json_extract(json_extract(value, '$.toolFormerData.params'), '$.relativeWorkspacePath'))
           FROM cursorDiskKV
          WHERE key LIKE 'bubbleId:%' AND json_extract(value, '$.toolFormerData.name') = 'edit_file_v2'`,
      )
      .pluck()
      .get();
    sql.close();
    const sqlLines = new Database(db('omarchy'), { readonly: true });
    const lines = sqlLines
      .prepare(
        `SELECT SUM(json_extract(l.value, '$.type') = 'added') AS added,
                SUM(json_extract(l.value, '$.type') = 'removed') AS removed
           FROM cursorDiskKV b, json_each(json_extract(b.value, '$.toolFormerData.additionalData'),
                                          '$.precomputedDiff.lines') l
          WHERE b.key LIKE 'bubbleId:%' AND json_extract(b.value, '$.toolFormerData.name') = 'edit_file_v2'`,
      )
      .get() as { added: number; removed: number };
    sqlLines.close();
    const [row] = await stats(db('omarchy'));
    expect(Object.keys(JSON.parse(String(row!.files)))).toHaveLength(edited as number);
    expect({ added: row!.lines_added, removed: row!.lines_removed }).toEqual(lines);
    expect(row!.bash_calls).toBe(recount(db('omarchy')).commands);
  });

  it('looks in Cursor/User on Linux, macOS and Windows', () => {
    expect(cursorDefaultRoots({ HOME: '/h' }, 'linux')).toEqual(['/h/.config/Cursor/User']);
    expect(cursorDefaultRoots({ HOME: '/Users/a' }, 'darwin')).toEqual([
      '/Users/a/Library/Application Support/Cursor/User',
    ]);
    expect(cursorDefaultRoots({ HOME: '/h', APPDATA: 'C:/AppData/Roaming' }, 'win32')).toEqual([
      join('C:/AppData/Roaming', 'Cursor', 'User'),
    ]);
  });
});

describe('Cursor subagent composers', () => {
  it('links a composer its parent lists in subagentComposerIds', () => {
    const dir = tempDir('strata-cursor-sub-');
    try {
      const path = join(dir, 'globalStorage', 'state.vscdb');
      mkdirSync(join(dir, 'globalStorage'));
      const sql = new Database(path);
      sql.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
      const put = sql.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
      const composer = (id: string, children: string[]) => ({
        composerId: id,
        name: id,
        fullConversationHeadersOnly: [{ bubbleId: `${id}-b` }],
        subagentComposerIds: children,
      });
      put.run('composerData:parent', JSON.stringify(composer('parent', ['child'])));
      put.run('composerData:child', JSON.stringify(composer('child', [])));
      for (const id of ['parent', 'child'])
        put.run(`bubbleId:${id}:${id}-b`, JSON.stringify({ bubbleId: `${id}-b`, type: 1, text: `task for ${id}` }));
      sql.close();
      const out = parseCursorDb(path);
      expect(out.sessions.map((s) => [s.key, s.parentKey, s.relation])).toEqual([
        ['parent', undefined, undefined],
        ['child', 'parent', 'subagent'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
