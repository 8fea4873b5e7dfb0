// The one real Zed threads.db found in public repositories (test/fixtures/real-extra/zed, February 2026,
// thread format 0.3, zstd): counts recomputed here from the decompressed thread JSON.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA } from '../../../test/support/paths.js';
import { parseZedDb } from './parser.js';
import { zedDefaultRoots } from './paths.js';

type J = Record<string, any>;
const DIR = join(REAL_EXTRA, 'zed', 'atlasata-dotfiles', '.local', 'share', 'zed', 'threads');
const DB = join(DIR, 'threads.db');

function recount() {
  const sql = new Database(DB, { readonly: true });
  const rows = sql.prepare('SELECT id, summary, data_type, data FROM threads').all() as J[];
  sql.close();
  return rows.map((r) => {
    const thread = JSON.parse(Buffer.from(decompress(r.data)).toString('utf8')) as J;
    const agent = (thread.messages as J[]).filter((m) => m.Agent).map((m) => m.Agent as J);
    const uses = agent.flatMap((a) => (a.content as J[]).filter((c) => c.ToolUse));
    return {
      id: r.id as string,
      title: r.summary as string,
      dataType: r.data_type as string,
      prompts: (thread.messages as J[]).filter((m) => m.User).length,
      replies: agent.length,
      calls: uses.length,
      results: agent.reduce((n, a) => n + Object.keys(a.tool_results ?? {}).length, 0),
      errors: agent.flatMap((a) => Object.values(a.tool_results ?? {}) as J[]).filter((t) => t.is_error).length,
      project: thread.initial_project_snapshot.worktree_snapshots[0].worktree_path as string,
      input: Object.values(thread.request_token_usage as J).reduce((n, u) => n + (u as J).input_tokens, 0),
    };
  });
}

describe('Zed threads.db (real file)', () => {
  it('reads the zstd thread with the counts, title, project and usage of its JSON', () => {
    const [expected] = recount();
    expect(expected!.dataType).toBe('zstd');
    const out = parseZedDb(DB);
    expect(out.malformed).toEqual([]);
    expect(out.sessions).toEqual([
      expect.objectContaining({ key: expected!.id, title: expected!.title, project: expected!.project }),
    ]);
    expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(expected!.prompts);
    expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(expected!.replies);
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(expected!.calls);
    expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(expected!.results);
    expect(blocks.filter((b) => b.isError)).toHaveLength(expected!.errors);
    expect(out.messages.reduce((n, m) => n + (m.usage?.inputTokens ?? 0), 0)).toBe(expected!.input);
    expect(readdirSync(DIR)).toEqual(['threads.db']);
  });

  it('looks in Zed’s data folder on Linux, macOS and Windows', () => {
    expect(zedDefaultRoots({ HOME: '/h' }, 'linux')).toEqual(['/h/.local/share/zed/threads']);
    expect(zedDefaultRoots({ HOME: '/Users/a' }, 'darwin')).toEqual([
      '/Users/a/Library/Application Support/Zed/threads',
    ]);
    expect(zedDefaultRoots({ HOME: '/h', LOCALAPPDATA: 'C:/L' }, 'win32')).toEqual([join('C:/L', 'Zed', 'threads')]);
  });
});
