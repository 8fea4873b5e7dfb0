// Real Qwen Code chats (test/fixtures/real-extra/qwen; versions 0.5.1 and 0.12.6), every count recomputed
// here from the raw records: typed prompts, replies, tool calls and results, output tokens, the project,
// and the shell calls and edits of run_shell_command, edit and write_file through the ingest.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { readHead } from '../../core/ingest/resolve-inputs.js';
import type { ParseOutput } from '../../shared/model.js';
import { openStore } from '../../store/db.js';
import { claudeCodeAdapter } from '../claude-code/index.js';
import { qwenAdapter } from './index.js';
import { parseQwenLines } from './parser.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'qwen');
const FILES = qwenAdapter.discover(ROOT);

const records = (path: string): J[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as J);
function parse(path: string): ParseOutput {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter((l) => l.text);
  return parseQwenLines(lines, { path });
}
const parts = (r: J): J[] => r.message?.parts ?? [];
const nonEmpty = (p: J) => (typeof p.text === 'string' && p.text !== '') || p.functionCall || p.functionResponse;

describe('Qwen Code chats (real files)', () => {
  it('finds the three real chats, claimed by the Qwen adapter and not by Claude Code', () => {
    expect(FILES).toHaveLength(3);
    for (const f of FILES) {
      expect(qwenAdapter.detect(f, readHead(f))).toBe(true);
      expect(claudeCodeAdapter.detect(f, readHead(f))).toBe(false);
    }
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw records`, () => {
      const raw = records(file);
      const out = parse(file);
      expect(out.malformed).toEqual([]);
      const of = (type: string) => raw.filter((r) => r.type === type);
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks[0]?.text)).toEqual(
        of('user').map((r) => parts(r)[0]?.text),
      );
      expect(out.messages.filter((m) => m.kind === 'response')).toHaveLength(
        of('assistant').filter((r) => parts(r).some(nonEmpty) || r.usageMetadata).length,
      );
      expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(
        of('assistant').reduce((n, r) => n + parts(r).filter((p) => p.functionCall).length, 0),
      );
      expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(
        of('tool_result').reduce((n, r) => n + parts(r).filter((p) => p.functionResponse).length, 0),
      );
      expect(blocks.filter((b) => b.kind === 'thinking')).toHaveLength(
        of('assistant').reduce((n, r) => n + parts(r).filter((p) => p.thought === true && p.text).length, 0),
      );
      const output = of('assistant').reduce(
        (n, r) => n + (r.usageMetadata?.candidatesTokenCount ?? 0) + (r.usageMetadata?.thoughtsTokenCount ?? 0),
        0,
      );
      expect(out.messages.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0)).toBe(output);
      expect(out.skipped['system:ui_telemetry']).toBe(of('system').length);
      expect(out.sessions).toEqual([
        expect.objectContaining({ key: raw[0]!.sessionId, project: raw[0]!.cwd, agent: 'qwen' }),
      ]);
    });
  }

  it('counts shell calls, edited lines and files through the ingest', async () => {
    const file = FILES.find((f) => f.includes('4a3f5e0f')) as string;
    const calls = records(file)
      .flatMap((r) => parts(r))
      .filter((p) => p.functionCall)
      .map((p) => p.functionCall as J);
    const lines = (t?: string) => (t ? t.replace(/\n$/, '').split('\n').length : 0);
    let added = 0;
    let removed = 0;
    const files = new Set<string>();
    for (const { name, args } of calls) {
      if (name === 'edit') {
        added += lines(args.new_string);
        removed += lines(args.old_string);
      } else if (name === 'write_file') added += lines(args.content);
      else continue;
      files.add(args.file_path);
    }
    const dir = tempDir('strata-qwen-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [file], adapters: [qwenAdapter], env: {}, cwd: dir });
      const row = store.db
        .prepare('SELECT bash_calls AS bash, lines_added AS added, lines_removed AS removed, files FROM session_stats')
        .get() as { bash: number; added: number; removed: number; files: string };
      expect({ ...row, files: Object.keys(JSON.parse(row.files)).length }).toEqual({
        bash: calls.filter((c) => c.name === 'run_shell_command').length,
        added,
        removed,
        files: files.size,
      });
      expect(added + removed).toBeGreaterThan(0);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
