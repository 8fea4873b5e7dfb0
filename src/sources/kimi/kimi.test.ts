// Real Kimi CLI sessions (test/fixtures/real-extra/kimi; wire protocol 1.3, March 2026), every count
// recomputed here from the raw wire events: prompts, replies, tool calls and results, subagents, output
// tokens, the project from kimi.json, and the shell calls and edits of Shell, WriteFile and StrReplaceFile.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { kimiAdapter } from './index.js';
import { parseKimiFile } from './parser.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'kimi');
const FILES = kimiAdapter.discover(ROOT);
const events = (path: string): J[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as J)
    .filter((r) => r.message)
    .map((r) => r.message as J);
const inner = (all: J[]) => all.map((m) => (m.type === 'SubagentEvent' ? (m.payload.event as J) : m));
const text = (input: unknown) =>
  typeof input === 'string' ? input : (input as J[]).map((p) => p.text ?? '').join('\n');

describe('Kimi CLI wire files (real)', () => {
  it('finds the three sessions and explains the files beside them', () => {
    expect(FILES).toHaveLength(3);
    expect(kimiAdapter.explain?.(join(ROOT, 'ihhashi', 'kimi.json'))).toMatch(/work-dir list/);
    expect(kimiAdapter.explain?.(FILES[1]!.replace('wire.jsonl', 'state.json'))).toMatch(/session state/);
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw events`, async () => {
      const raw = events(file);
      const all = inner(raw);
      const out = await parseKimiFile({ path: file });
      expect(out.malformed).toEqual([]);
      const blocks = out.messages.flatMap((m) => m.blocks);
      const mainTurns = raw.filter((m) => m.type === 'TurnBegin' && text(m.payload.user_input).trim());
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks[0]?.text)).toEqual(
        mainTurns.map((m) => text(m.payload.user_input).trim()),
      );
      expect(blocks.filter((b) => b.kind === 'tool_call').map((b) => b.toolCallId)).toEqual(
        all.filter((m) => m.type === 'ToolCall').map((m) => m.payload.id),
      );
      expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(
        all.filter((m) => m.type === 'ToolResult').length,
      );
      // Every streamed argument string ends up whole JSON.
      for (const b of blocks.filter((x) => x.kind === 'tool_call')) expect(typeof b.toolInput).toBe('object');
      const output = all
        .filter((m) => m.type === 'StatusUpdate')
        .reduce((n, m) => n + (m.payload.token_usage?.output ?? 0), 0);
      expect(out.messages.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0)).toBe(output);
      const subagents = new Set(raw.filter((m) => m.type === 'SubagentEvent').map((m) => m.payload.task_tool_call_id));
      const [main, ...subs] = out.sessions;
      expect(main).toMatchObject({ key: file.split('/').at(-2), project: '/home/teacherchris37' });
      expect(subs.map((s) => s.meta?.toolCallId)).toEqual([...subagents]);
      for (const s of subs)
        expect({ parent: s.parentKey, relation: s.relation }).toEqual({ parent: main!.key, relation: 'subagent' });
    });
  }

  it('counts shell calls, edited lines and files through the ingest', async () => {
    const file = FILES.find((f) => f.includes('3951a8af')) as string;
    const calls = events(file)
      .filter((m) => m.type === 'ToolCall' || m.type === 'ToolCallPart')
      .reduce<{ name: string; args: string }[]>((list, m) => {
        if (m.type === 'ToolCall') list.push({ name: m.payload.function.name, args: m.payload.function.arguments });
        else list[list.length - 1]!.args += m.payload.arguments_part;
        return list;
      }, [])
      .map((c) => ({ name: c.name, args: JSON.parse(c.args) as J }));
    const lines = (t?: string) => (t ? t.replace(/\n$/, '').split('\n').length : 0);
    let added = 0;
    let removed = 0;
    const files = new Set<string>();
    for (const { name, args } of calls) {
      if (name === 'WriteFile') added += lines(args.content);
      else if (name === 'StrReplaceFile') {
        for (const e of [args.edit].flat()) {
          added += lines(e.new);
          removed += lines(e.old);
        }
      } else continue;
      files.add(args.path);
    }
    const dir = tempDir('strata-kimi-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [file], adapters: [kimiAdapter], env: {}, cwd: dir });
      const row = store.db
        .prepare('SELECT bash_calls AS bash, lines_added AS added, lines_removed AS removed, files FROM session_stats')
        .get() as { bash: number; added: number; removed: number; files: string };
      expect({ ...row, files: Object.keys(JSON.parse(row.files)).length }).toEqual({
        bash: calls.filter((c) => c.name === 'Shell').length,
        added,
        removed,
        files: files.size,
      });
      expect(removed).toBeGreaterThan(0);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
