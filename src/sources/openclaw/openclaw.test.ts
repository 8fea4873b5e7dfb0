// Real OpenClaw sessions (test/fixtures/real-extra/openclaw; March 2026, pi session format v3), every count
// recomputed here from the raw entries: typed prompts (the text after OpenClaw's metadata blocks; the /new
// startup instruction is context), replies, tool calls and results, output tokens, shell calls and the project.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { readHead } from '../../core/ingest/resolve-inputs.js';
import { openStore } from '../../store/db.js';
import { claudeCodeAdapter } from '../claude-code/index.js';
import { openclawAdapter } from './index.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'openclaw');
const FILES = openclawAdapter.discover(ROOT);
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

describe('OpenClaw sessions (real files)', () => {
  it('finds the two sessions, claimed by OpenClaw only', () => {
    expect(FILES).toHaveLength(2);
    for (const f of FILES) {
      expect(openclawAdapter.detect(f, readHead(f))).toBe(true);
      expect(claudeCodeAdapter.detect(f, readHead(f))).toBe(false);
    }
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw entries`, () => {
      const raw = entries(file);
      const messages = raw.filter((e) => e.type === 'message').map((e) => e.message as J);
      const of = (role: string) => messages.filter((m) => m.role === role);
      const out = openclawAdapter.parseLines(lines(file), { path: file });
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

  it('counts the exec calls as shell calls through the ingest', async () => {
    const file = FILES.find((f) => f.includes('wave-agent')) as string;
    const execs = entries(file)
      .filter((e) => e.type === 'message' && e.message.role === 'assistant')
      .flatMap((e) => e.message.content as J[])
      .filter((p) => p.type === 'toolCall' && p.name === 'exec').length;
    const dir = tempDir('strata-openclaw-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [file], adapters: [openclawAdapter], env: {}, cwd: dir });
      const row = store.db.prepare('SELECT bash_calls AS bash FROM session_stats').get() as { bash: number };
      expect(row.bash).toBe(execs);
      expect(execs).toBeGreaterThan(0);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
