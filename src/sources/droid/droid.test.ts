// Real Factory Droid transcripts (test/fixtures/real-extra/droid): written by the Droid CLI 0.225.2 itself, run
// headless (`droid exec`) against a scripted model on 127.0.0.1 (provenance in SOURCES.tsv). Every count is
// recomputed here from the raw records: prompts, injected context, replies, tool calls and results, errors,
// and through the ingest the Execute calls, the lines Create and Edit wrote and the files they touched.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { ADAPTERS } from '../registry.js';
import { droidAdapter } from './index.js';
import { parseDroidFile } from './parser.js';
import { droidDefaultRoots } from './paths.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'droid', 'cli-0.225.2', 'sessions');
const FILES = droidAdapter.discover(ROOT);
const records = (path: string): J[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as J);
const messages = (path: string) => records(path).filter((r) => r.type === 'message');
const parts = (path: string, role: string) =>
  messages(path)
    .filter((r) => r.message.role === role)
    .flatMap((r) => r.message.content as J[]);

describe('Factory Droid transcripts (real)', () => {
  it('finds the two sessions, explains the settings beside them, and looks under FACTORY_HOME_OVERRIDE', () => {
    expect(FILES).toHaveLength(2);
    for (const f of FILES) expect(droidAdapter.detect(f, readFileSync(f, 'utf8').slice(0, 4096))).toBe(true);
    expect(droidAdapter.explain?.(FILES[0]!.replace('.jsonl', '.settings.json'))).toMatch(/settings/);
    expect(droidDefaultRoots({ HOME: '/h' })).toEqual(['/h/.factory/sessions']);
    expect(droidDefaultRoots({ HOME: '/h', FACTORY_HOME_OVERRIDE: '/o' })).toEqual(['/o/.factory/sessions']);
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw records`, async () => {
      const start = records(file)[0]!;
      const out = await parseDroidFile({ path: file });
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toEqual([
        expect.objectContaining({ key: start.id, title: start.title, project: start.cwd }),
      ]);
      const user = messages(file).filter((r) => r.message.role === 'user');
      const context = user.filter((r) => r.id.startsWith('context-'));
      const typed = user.filter(
        (r) => !r.id.startsWith('context-') && r.message.content.some((p: J) => p.type === 'text'),
      );
      expect(out.messages.filter((m) => m.kind === 'meta').map((m) => m.key)).toEqual(context.map((r) => r.id));
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks[0]?.text)).toEqual(
        typed.map((r) => r.message.content[0].text),
      );
      expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(
        messages(file).filter((r) => r.message.role === 'assistant').length,
      );
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect(blocks.filter((b) => b.kind === 'tool_call').map((b) => b.toolName)).toEqual(
        parts(file, 'assistant')
          .filter((p) => p.type === 'tool_use')
          .map((p) => p.name),
      );
      const results = parts(file, 'user').filter((p) => p.type === 'tool_result');
      expect(blocks.filter((b) => b.kind === 'tool_result').map((b) => [b.toolCallId, b.isError === true])).toEqual(
        results.map((p) => [p.tool_use_id, p.is_error]),
      );
      expect(out.skipped).toEqual({ agent_turn_outcome: 1 });
      expect(out.sessions[0]!.meta).toMatchObject({ model: 'custom:Fake-0' });
    });
  }

  it('is claimed by the Droid adapter alone, and counts Execute, Create and Edit through the ingest', async () => {
    const dir = tempDir('strata-droid-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      const res = await ingest({ store, paths: [ROOT], adapters: ADAPTERS, env: {}, cwd: dir });
      expect(res.filesIngested).toBe(2);
      const rows = store.db
        .prepare(
          `SELECT s.agent, s.external_id AS id, t.bash_calls AS bash, t.lines_added AS added,
                  t.lines_removed AS removed, t.files FROM sessions s JOIN session_stats t ON t.session_id = s.id
            ORDER BY s.external_id`,
        )
        .all() as Array<{ agent: string; id: string; bash: number; added: number; removed: number; files: string }>;
      const expected = FILES.map((f) => {
        const uses = parts(f, 'assistant').filter((p) => p.type === 'tool_use');
        const lines = (t?: string) => (t ? t.replace(/\n$/, '').split('\n').length : 0);
        const edits = uses.filter((p) => p.name === 'Create' || p.name === 'Edit');
        return {
          agent: 'droid',
          id: records(f)[0]!.id,
          bash: uses.filter((p) => p.name === 'Execute').length,
          added: edits.reduce((n, p) => n + lines(p.input.content ?? p.input.new_str), 0),
          removed: edits.reduce((n, p) => n + lines(p.input.old_str), 0),
          files: [...new Set(edits.map((p) => p.input.file_path))],
        };
      });
      expect(rows.map((r) => ({ ...r, files: Object.keys(JSON.parse(r.files)) }))).toEqual(expected);
      expect(expected[0]!.added).toBeGreaterThan(0);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
