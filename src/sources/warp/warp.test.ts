// Real Warp databases (test/fixtures/real-extra/warp, provenance in SOURCES.tsv): October 2024 (ai_queries
// only) and December 2025 (agent conversations and protobuf tasks). Counts recounted here in SQL.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA } from '../../../test/support/paths.js';
import { warpAdapter } from './index.js';
import { parseWarpDb } from './parser.js';
import { warpDefaultRoots } from './paths.js';

const dir = (name: string) => join(REAL_EXTRA, 'warp', name, '.local', 'state', 'warp-terminal');
const NAMES = ['mdriscoll93-dotfiles', 'hyprmatu'];

function recount(path: string) {
  const sql = new Database(path, { readonly: true });
  try {
    const prompts = sql
      .prepare(
        `SELECT COUNT(*) FROM ai_queries, json_each(ai_queries.input) q
          WHERE trim(coalesce(json_extract(q.value, '$.Query.text'), '')) <> ''`,
      )
      .pluck()
      .get() as number;
    const sessions = sql.prepare('SELECT COUNT(DISTINCT conversation_id) FROM ai_queries').pluck().get() as number;
    const projects = sql.prepare('SELECT DISTINCT working_directory FROM ai_queries').pluck().all();
    const hasTasks = sql.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'agent_tasks'").pluck().get();
    const tasks = hasTasks ? (sql.prepare('SELECT COUNT(*) FROM agent_tasks').pluck().get() as number) : 0;
    return { prompts, sessions, projects, tasks };
  } finally {
    sql.close();
  }
}

describe('Warp warp.sqlite (real files)', () => {
  for (const name of NAMES) {
    it(`${name}: sessions, prompts, projects and unread agent tasks match a SQL recount`, () => {
      const path = join(dir(name), 'warp.sqlite');
      const expected = recount(path);
      const out = parseWarpDb(path);
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(expected.sessions);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(expected.prompts);
      expect([...new Set(out.sessions.map((s) => s.project))]).toEqual(expected.projects);
      expect(out.skipped['agent_task:protobuf'] ?? 0).toBe(expected.tasks);
      for (const m of out.messages) expect(m.timestamp).toMatch(/^20(24|25)-/);
      expect(readdirSync(dir(name))).toEqual(['warp.sqlite']);
    });
  }

  it('keeps the conversation usage Warp records, and says what it cannot read', () => {
    const out = parseWarpDb(join(dir('hyprmatu'), 'warp.sqlite'));
    const session = out.sessions.find((s) => s.key.startsWith('8cfe75bc'))!;
    expect(session.meta).toMatchObject({ model: 'gpt-5 (high reasoning)', totalTokens: 281740 });
    expect(warpAdapter.formats.join(' ')).toMatch(/not read: .*protobuf without a published schema/);
  });

  it('looks in Warp’s state folder on Linux, macOS and Windows', () => {
    expect(warpDefaultRoots({ HOME: '/h' }, 'linux')).toEqual(['/h/.local/state/warp-terminal']);
    expect(warpDefaultRoots({ HOME: '/Users/a' }, 'darwin')[0]).toBe(
      '/Users/a/Library/Group Containers/2BBY89MBSN.dev.warp/Library/Application Support/dev.warp.Warp-Stable',
    );
    expect(warpDefaultRoots({ HOME: '/h', LOCALAPPDATA: 'C:/L' }, 'win32')).toEqual([
      join('C:/L', 'warp', 'Warp', 'data'),
    ]);
  });
});
