// Real OpenClaw and pi sessions (test/fixtures/real-extra/openclaw and pi; March to May 2026, session format
// v3), every count recomputed here from the raw entries: typed prompts (for OpenClaw the text after its
// metadata blocks; its /new startup instruction is context), replies, tool calls and results, output tokens,
// shell calls and the project.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { readHead } from '../../core/ingest/resolve-inputs.js';
import { openStore } from '../../store/db.js';
import { claudeCodeAdapter } from '../claude-code/index.js';
import type { LineAdapter } from '../types.js';
import { piAdapter } from '../pi/index.js';
import { openclawAdapter } from './index.js';

type J = Record<string, any>;
const entries = (path: string): J[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as J);
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter((l) => l.text);
/** What a person typed: the text after the last closing fence of a metadata preamble, if it had one. */
const typed = (text: string) =>
  text.startsWith('A new session was started')
    ? ''
    : text.includes('(untrusted metadata):')
      ? text.slice(text.lastIndexOf('```') + 3).trim()
      : text.trim();

const CASES: [string, LineAdapter, number][] = [
  ['openclaw', openclawAdapter, 2],
  ['pi', piAdapter, 2],
];

describe.each(CASES)('%s sessions (real files)', (name, adapter, count) => {
  const ROOT = join(REAL_EXTRA, name);
  const FILES = adapter.discover(ROOT);
  it('finds the real sessions, claimed by this adapter only', () => {
    expect(FILES).toHaveLength(count);
    const others = [claudeCodeAdapter, openclawAdapter, piAdapter].filter((a) => a !== adapter);
    for (const f of FILES) {
      expect(adapter.detect(f, readHead(f))).toBe(true);
      for (const other of others) expect(other.detect(f, readHead(f))).toBe(false);
    }
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw entries`, () => {
      const raw = entries(file);
      const messages = raw.filter((e) => e.type === 'message').map((e) => e.message as J);
      const of = (role: string) => messages.filter((m) => m.role === role);
      const out = adapter.parseLines(lines(file), { path: file });
      expect(out.malformed).toEqual([]);
      const prompts = of('user')
        .map((m) => typed(typeof m.content === 'string' ? m.content : m.content[0].text))
        .filter(Boolean);
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks.find((b) => !b.noise)?.text)).toEqual(
        prompts,
      );
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect(blocks.filter((b) => b.kind === 'tool_call').map((b) => b.toolCallId)).toEqual(
        of('assistant').flatMap((m) => m.content.filter((p: J) => p.type === 'toolCall').map((p: J) => p.id)),
      );
      expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(of('toolResult').length);
      expect(out.messages.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0)).toBe(
        of('assistant').reduce((n, m) => n + (m.usage?.output ?? 0), 0),
      );
      expect(out.sessions).toEqual([expect.objectContaining({ key: raw[0]!.id, project: raw[0]!.cwd })]);
    });
  }

  it('counts the shell calls through the ingest', async () => {
    const file = FILES.at(-1) as string;
    const execs = entries(file)
      .filter((e) => e.type === 'message' && e.message.role === 'assistant')
      .flatMap((e) => e.message.content as J[])
      .filter((p) => p.type === 'toolCall' && (p.name === 'exec' || p.name === 'bash')).length;
    const dir = tempDir('strata-openclaw-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [file], adapters: [adapter], env: {}, cwd: dir });
      const row = store.db.prepare('SELECT bash_calls AS bash FROM session_stats').get() as { bash: number };
      expect(row.bash).toBe(execs);
      expect(execs).toBeGreaterThan(0);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
