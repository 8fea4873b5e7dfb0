// Real Crush databases (test/fixtures/real-extra/crush, provenance in SOURCES.tsv), August to October 2025:
// a subagent session under its parent, default "New Session" titles, titles with a reasoning model's
// `<think>` preamble and a summarized session. Every count is recounted here in SQL.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { crushAdapter } from './index.js';
import { parseCrushDb } from './parser.js';
import { crushDefaultRoots, discoverCrushDbs } from './paths.js';

const ROOT = join(REAL_EXTRA, 'crush');
const db = (name: string) => join(ROOT, name, '.crush', 'crush.db');
const NAMES = ['nano-bot', 'michaeljjacob-dotfiles', 'ylor-dotfiles'];

const PARTS = `SELECT m.session_id, m.role, m.id, p.value AS part, json_extract(p.value, '$.type') AS type
                 FROM messages m, json_each(m.parts) p`;

function recount(path: string) {
  const sql = new Database(path, { readonly: true });
  try {
    const counts = sql
      .prepare(
        `WITH parts AS (${PARTS}) SELECT
           (SELECT COUNT(DISTINCT id) FROM parts WHERE role = 'user'
              AND type = 'text' AND trim(json_extract(part, '$.data.text')) <> '') AS prompts,
           (SELECT COUNT(DISTINCT id) FROM parts WHERE role = 'assistant' AND (type = 'tool_call'
              OR type IN ('text', 'reasoning') AND trim(coalesce(json_extract(part, '$.data.text'),
                 json_extract(part, '$.data.thinking'), '')) <> '')) AS replies,
           (SELECT COUNT(*) FROM parts WHERE type = 'tool_call') AS calls,
           (SELECT COUNT(*) FROM parts WHERE type = 'tool_result') AS results,
           (SELECT COUNT(DISTINCT session_id) FROM parts) AS sessions,
           (SELECT COUNT(*) FROM sessions WHERE parent_session_id IS NOT NULL) AS subagents`,
      )
      .get() as Record<'prompts' | 'replies' | 'calls' | 'results' | 'sessions' | 'subagents', number>;
    const titles = sql
      .prepare(
        `SELECT id, trim(CASE WHEN instr(title, '</think>') > 0
                              THEN substr(title, instr(title, '</think>') + 8) ELSE title END) AS title
           FROM sessions WHERE title <> 'New Session' ORDER BY id`,
      )
      .all() as Array<{ id: string; title: string }>;
    return { counts, titles };
  } finally {
    sql.close();
  }
}

describe('Crush crush.db (real files)', () => {
  for (const name of NAMES) {
    it(`${name}: prompts, replies, tool calls and results, titles match a SQL recount`, () => {
      const { counts, titles } = recount(db(name));
      const out = parseCrushDb(db(name));
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(counts.sessions);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(counts.prompts);
      expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(counts.replies);
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(counts.calls);
      expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(counts.results);
      expect(out.sessions.filter((s) => s.relation === 'subagent')).toHaveLength(counts.subagents);
      const titled = out.sessions.filter((s) => s.title).map((s) => ({ id: s.key, title: s.title }));
      expect(titled.sort((a, b) => a.id.localeCompare(b.id))).toEqual(titles);
      // Times stored in seconds read as 2025, not 1970.
      for (const m of out.messages) expect(m.timestamp).toMatch(/^2025-(0[89]|10)-/);
      expect(readdirSync(join(ROOT, name, '.crush'))).toEqual(['crush.db']);
    });
  }

  it('counts the files edited by edit, multiedit and write calls, and shell calls', async () => {
    const sql = new Database(db('michaeljjacob-dotfiles'), { readonly: true });
    const expected = sql
      .prepare(
        `SELECT m.session_id AS id,
                COUNT(DISTINCT CASE WHEN json_extract(p.value, '$.data.name') IN ('edit', 'multiedit', 'write')
                  THEN json_extract(json_extract(p.value, '$.data.input'), '$.file_path') END) AS files,
                SUM(json_extract(p.value, '$.data.name') = 'bash') AS bash
           FROM messages m, json_each(m.parts) p WHERE json_extract(p.value, '$.type') = 'tool_call'
          GROUP BY m.session_id ORDER BY m.session_id`,
      )
      .all();
    sql.close();
    const dir = tempDir('strata-crush-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [db('michaeljjacob-dotfiles')], adapters: [crushAdapter], env: {}, cwd: dir });
      const rows = store.db
        .prepare(
          `SELECT s.external_id AS id, s.project, t.files, t.bash_calls AS bash FROM sessions s
             JOIN session_stats t ON t.session_id = s.id ORDER BY s.external_id`,
        )
        .all() as Array<{ id: string; project: string; files: string; bash: number }>;
      expect(rows.map((r) => ({ id: r.id, files: Object.keys(JSON.parse(r.files)).length, bash: r.bash }))).toEqual(
        expected,
      );
      expect(new Set(rows.map((r) => r.project))).toEqual(new Set([join(ROOT, 'michaeljjacob-dotfiles')]));
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the projects Crush lists in projects.json, and looks in its global data folder', () => {
    const dir = tempDir('strata-crush-global-');
    try {
      const projects = NAMES.map((n) => ({ path: join(ROOT, n), data_dir: '.crush' }));
      writeFileSync(join(dir, 'projects.json'), JSON.stringify({ projects }));
      expect(discoverCrushDbs(dir)).toEqual(NAMES.map(db).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(crushDefaultRoots({ HOME: '/h' }, 'linux')).toEqual(['/h/.local/share/crush']);
    expect(crushDefaultRoots({ HOME: '/h', CRUSH_GLOBAL_DATA: '/d' }, 'darwin')).toEqual(['/d']);
    expect(crushDefaultRoots({ HOME: '/h', LOCALAPPDATA: 'C:/L' }, 'win32')).toEqual([join('C:/L', 'crush')]);
  });
});
