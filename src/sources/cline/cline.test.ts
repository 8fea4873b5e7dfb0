// A real Cline task (test/fixtures/real-extra/cline): ingested through the engine, with every count
// recounted here from the raw JSON files (messages, typed prompts, tool calls and results, shell calls,
// edited files and lines, tokens, first time).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { clineAdapter } from './index.js';
import { parseClineTask } from './parser.js';
import { clineDefaultRoots, productOf } from './paths.js';
import { searchReplaceLines } from '../../shared/tool-calls/edit-stats.js';

type J = Record<string, any>;
const TASK = join(REAL_EXTRA, 'cline/online-card-architecture/tasks/1769053680585');
const HISTORY = join(TASK, 'api_conversation_history.json');
const read = (name: string): J[] => JSON.parse(readFileSync(join(TASK, name), 'utf8'));

function recount() {
  const api = read('api_conversation_history.json');
  const parts = (role: string) => api.filter((m) => m.role === role).flatMap((m) => m.content as J[]);
  const calls = parts('assistant').filter((p) => p.type === 'tool_use');
  const lines = (t: string) => (t === '' ? 0 : t.replace(/\n$/, '').split('\n').length);
  const files = new Set<string>();
  let added = 0;
  let removed = 0;
  for (const c of calls) {
    if (c.name === 'write_to_file') added += lines(c.input.content);
    else if (c.name === 'replace_in_file') {
      const d = searchReplaceLines(c.input.diff);
      added += d.added;
      removed += d.removed;
    } else continue;
    files.add(c.input.absolutePath);
  }
  const task = parts('user').find((p) => typeof p.text === 'string' && p.text.startsWith('<task>'));
  return {
    messages: api.length,
    prompts: api.filter(
      (m) => m.role === 'user' && (m.content as J[]).some((p) => /^<(task|feedback)>/.test(p.text ?? '')),
    ).length,
    toolCalls: calls.length,
    toolResults: parts('user').filter((p) => /^\[[\w.-]+( for [\s\S]*?)?\] Result:/.test(p.text ?? '')).length,
    bash: calls.filter((c) => c.name === 'execute_command').length,
    files: files.size,
    added,
    removed,
    outputTokens: api.reduce((n, m) => n + (m.metrics?.tokens?.completion ?? 0), 0),
    title: String(task?.text ?? '')
      .replace(/^<task>\n?/, '')
      .split('\n')[0]
      ?.trim(),
    firstTs: read('ui_messages.json')[0]?.ts as number,
  };
}

describe('Cline task (real file)', () => {
  it('parses every message, prompt, call and result, dated by the UI messages beside it', () => {
    const expected = recount();
    const out = parseClineTask(HISTORY);
    expect(out.malformed).toEqual([]);
    expect(out.messages).toHaveLength(expected.messages);
    expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(expected.prompts);
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(expected.toolCalls);
    expect(blocks.filter((b) => b.kind === 'tool_result')).toHaveLength(expected.toolResults);
    expect(out.messages[0]?.timestamp).toBe(new Date(expected.firstTs).toISOString());
    expect(out.messages.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0)).toBe(expected.outputTokens);
    expect(out.sessions).toEqual([
      expect.objectContaining({
        key: '1769053680585',
        agent: 'cline',
        project: '/workspaces/Online-Card-Architecture',
        meta: expect.objectContaining({ product: 'cline', models: ['claude-sonnet-4-5-20250929'] }),
      }),
    ]);
  });

  it('stores the session with its statistics and the task as its title', async () => {
    const expected = recount();
    const dir = tempDir('strata-cline-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      const report = await ingest({ store, paths: [TASK], adapters: [clineAdapter], env: {}, cwd: dir });
      expect(report.messagesAdded).toBe(expected.messages);
      expect(report.notSession.map((n) => n.path.split('/').pop()).sort()).toEqual([
        'task_metadata.json',
        'ui_messages.json',
      ]);
      const row = store.db
        .prepare(
          `SELECT st.bash_calls AS bash, st.lines_added AS added, st.lines_removed AS removed, st.files,
                  st.first_prompt AS title FROM session_stats st`,
        )
        .get() as { bash: number; added: number; removed: number; files: string; title: string };
      expect({ ...row, files: Object.keys(JSON.parse(row.files)).length, title: row.title.slice(0, 100) }).toEqual({
        bash: expected.bash,
        added: expected.added,
        removed: expected.removed,
        files: expected.files,
        title: expected.title?.slice(0, 100),
      });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SEARCH/REPLACE diffs', () => {
  it("counts Cline's and Roo Code's markers alike", () => {
    const cline = '------- SEARCH\na\nb\n=======\nc\n+++++++ REPLACE\n';
    const roo = '<<<<<<< SEARCH\n:start_line:3\n-------\na\n=======\nb\nc\nd\n>>>>>>> REPLACE';
    expect(searchReplaceLines(cline)).toEqual({ added: 1, removed: 2 });
    expect(searchReplaceLines(roo)).toEqual({ added: 3, removed: 1 });
    expect(searchReplaceLines(cline + cline)).toEqual({ added: 2, removed: 4 });
  });
});

describe('Cline, Roo Code and Kilo Code locations', () => {
  it('looks in each editor’s globalStorage on Linux, macOS and Windows, and in $CLINE_DIR', () => {
    const linux = clineDefaultRoots({ HOME: '/h' }, 'linux');
    expect(linux).toContain('/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev');
    expect(linux).toContain('/h/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline');
    expect(linux).toContain('/h/.vscode-server/data/User/globalStorage/kilocode.kilo-code');
    expect(linux).toContain('/h/.cline/data');
    expect(clineDefaultRoots({ HOME: '/h', CLINE_DIR: '/c' }, 'linux')).toContain('/c/data');
    expect(clineDefaultRoots({ HOME: '/Users/a' }, 'darwin')).toContain(
      '/Users/a/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev',
    );
    expect(clineDefaultRoots({ HOME: '/h', APPDATA: '/h/AppData/Roaming' }, 'win32')).toContain(
      join('/h/AppData/Roaming', 'Code', 'User', 'globalStorage', 'kilocode.kilo-code'),
    );
  });

  it('names the product from the extension folder', () => {
    expect(productOf('/x/globalStorage/rooveterinaryinc.roo-cline/tasks/1/api_conversation_history.json')).toBe(
      'roo-code',
    );
    expect(productOf('/x/globalStorage/kilocode.kilo-code/tasks/1/api_conversation_history.json')).toBe('kilo-code');
    expect(productOf('/x/exported/1/api_conversation_history.json')).toBe('cline');
  });
});
