// Real GitHub Copilot CLI files (test/fixtures/real-extra/copilot-cli; three formats, versions from
// October 2025 to June 2026), every count recomputed here from the raw events: typed prompts, tool
// calls and results, errors, output tokens, titles and projects from workspace.yaml, edit statistics.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import type { ParseOutput } from '../../shared/model.js';
import { openStore } from '../../store/db.js';
import { copilotCliAdapter } from './index.js';
import { parseCopilotLines } from './parser.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'copilot-cli');
const FILES = copilotCliAdapter.discover(ROOT);
const EVENT_FILES = FILES.filter((f) => f.endsWith('.jsonl'));
const LEGACY = FILES.filter((f) => f.endsWith('.json'));

function parse(path: string): ParseOutput {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter((l) => l.text);
  return parseCopilotLines(lines, { path });
}
const events = (path: string): J[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as J);
const yamlField = (path: string, key: string) =>
  new RegExp(`^${key}: (.+)$`, 'm').exec(readFileSync(join(dirname(path), 'workspace.yaml'), 'utf8'))?.[1];
const typed = (s: string) => s.replace(/<current_datetime>[\s\S]*?<\/current_datetime>/g, '').trim();

describe('Copilot CLI event logs (real files)', () => {
  it('finds the four real event logs and the history file', () => {
    expect({ events: EVENT_FILES.length, legacy: LEGACY.length }).toEqual({ events: 4, legacy: 1 });
  });

  for (const file of EVENT_FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw events`, () => {
      const raw = events(file);
      const of = (type: string) => raw.filter((e) => e.type === type);
      const out = parse(file);
      expect(out.malformed).toEqual([]);
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(
        of('user.message').filter((e) => typed(e.data.content ?? '') !== '').length,
      );
      expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(
        of('assistant.message').reduce((n, e) => n + (e.data.toolRequests?.length ?? 0), 0),
      );
      expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(of('tool.execution_complete').length);
      expect(out.messages.filter((m) => m.kind === 'error')).toHaveLength(of('session.error').length);
      const output = of('session.shutdown').reduce(
        (n, e) =>
          n + Object.values(e.data.modelMetrics ?? {}).reduce((k: number, m: any) => k + m.usage.outputTokens, 0),
        0,
      );
      expect(out.messages.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0)).toBe(output);
      const [session] = out.sessions;
      if (file.endsWith('events.jsonl')) {
        expect(session?.title).toBe(yamlField(file, 'name') ?? yamlField(file, 'summary'));
        expect(session?.project).toBe(yamlField(file, 'cwd'));
      }
      expect(session?.key).toBe(of('session.start')[0]?.data.sessionId);
    });
  }

  it('parses the October 2025 history-session-state file', () => {
    const [file] = LEGACY;
    const doc = JSON.parse(readFileSync(file as string, 'utf8')) as J;
    const chat = doc.chatMessages as J[];
    const out = parse(file as string);
    expect(out.sessions.map((s) => s.key)).toEqual([doc.sessionId]);
    expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(
      chat.filter((m) => m.role === 'user' && typed(String(m.content).replace(/<reminder>[\s\S]*?<\/reminder>/g, '')))
        .length,
    );
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(
      chat.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0),
    );
    expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(chat.filter((m) => m.role === 'tool').length);
  });

  it('counts shell calls and the edits of str_replace_editor through the ingest', async () => {
    const file = EVENT_FILES.find((f) => f.includes('hawzx-ai')) as string;
    const calls = events(file)
      .filter((e) => e.type === 'assistant.message')
      .flatMap((e) => (e.data.toolRequests ?? []) as J[])
      .map((r) => ({
        name: r.name as string,
        args: (typeof r.arguments === 'string' ? JSON.parse(r.arguments) : r.arguments) as J,
      }));
    const lines = (t?: string) => (t ? t.replace(/\n$/, '').split('\n').length : 0);
    let added = 0;
    let removed = 0;
    const files = new Set<string>();
    for (const { name, args } of calls) {
      if (name !== 'str_replace_editor' && name !== 'create') continue;
      if (args.command === 'view') continue;
      files.add(args.path);
      if (args.command === 'str_replace') {
        added += lines(args.new_str);
        removed += lines(args.old_str);
      } else added += lines(args.file_text ?? args.new_str);
    }
    const dir = tempDir('strata-copilot-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [file], adapters: [copilotCliAdapter], env: {}, cwd: dir });
      const row = store.db
        .prepare('SELECT bash_calls AS bash, lines_added AS added, lines_removed AS removed, files FROM session_stats')
        .get() as { bash: number; added: number; removed: number; files: string };
      expect({ ...row, files: Object.keys(JSON.parse(row.files)).length }).toEqual({
        bash: calls.filter((c) => c.name === 'powershell' || c.name === 'bash').length,
        added,
        removed,
        files: files.size,
      });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
