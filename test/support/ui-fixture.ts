// Writes a small Claude Code transcript for the ui and blame tests: an Edit, a Write, a Read in Windows form,
// a failed Bash call, a message mentioning a file, and a prompt holding markup that must never run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const UI_SESSION = '7e57c0de-0000-4000-8000-000000000001';
export const XSS_TEXT =
  'check the login form <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 9, 0, s)).toISOString();

function user(n: number, content: unknown, extra: Record<string, unknown> = {}) {
  return {
    type: 'user',
    sessionId: UI_SESSION,
    uuid: `u-${n}`,
    timestamp: at(n),
    cwd: '/repo',
    message: { role: 'user', content },
    ...extra,
  };
}

function assistant(n: number, content: unknown[]) {
  return {
    type: 'assistant',
    sessionId: UI_SESSION,
    uuid: `a-${n}`,
    timestamp: at(n),
    cwd: '/repo',
    message: {
      id: `msg_${n}`,
      role: 'assistant',
      model: 'claude-test-1',
      content,
      usage: {
        input_tokens: 100 + n,
        output_tokens: 20 + n,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 0,
      },
    },
  };
}

const result = (id: string, text: string, isError = false) => [
  { type: 'tool_result', tool_use_id: id, content: text, is_error: isError },
];

/** Writes the transcript under `dir` (as ~/.claude/projects/-repo/<id>.jsonl) and returns the folder to ingest. */
export function writeUiFixture(dir: string): string {
  const folder = join(dir, 'claude', 'projects', '-repo');
  mkdirSync(folder, { recursive: true });
  const records = [
    user(1, XSS_TEXT),
    assistant(2, [
      { type: 'text', text: 'I will fix the timeout in src/app.ts first.' },
      {
        type: 'tool_use',
        id: 'toolu_edit',
        name: 'Edit',
        input: {
          file_path: '/repo/src/app.ts',
          old_string: 'const timeout = 150;\n',
          new_string: 'const timeout = 600;\n',
        },
      },
    ]),
    user(3, result('toolu_edit', 'The file /repo/src/app.ts has been updated.')),
    assistant(4, [
      {
        type: 'tool_use',
        id: 'toolu_write',
        name: 'Write',
        input: { file_path: '/repo/src/new.ts', content: 'export const a = 1;\nexport const b = 2;\n' },
      },
    ]),
    user(5, result('toolu_write', 'File created successfully at: /repo/src/new.ts')),
    assistant(6, [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'C:\\repo\\src\\app.ts' } }]),
    user(7, result('toolu_read', '1\tconst timeout = 600;')),
    assistant(8, [
      { type: 'tool_use', id: 'toolu_bash', name: 'Bash', input: { command: 'npm test -- src/app.test.ts' } },
    ]),
    user(9, result('toolu_bash', 'Error: 1 test failed', true)),
    assistant(10, [
      { type: 'thinking', thinking: 'The test still fails; look at the retry loop.', signature: 'x' },
      { type: 'text', text: 'Done: the timeout is now 600 ms.' },
    ]),
  ];
  writeFileSync(join(folder, `${UI_SESSION}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return join(dir, 'claude');
}
