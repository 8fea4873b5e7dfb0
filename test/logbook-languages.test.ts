// The offline logbook in the five languages, end to end through the built CLI: real Japanese and Chinese
// sessions of the fixtures and written Chinese, Japanese, Korean and Spanish sessions (a plain decision
// and a failing test then fixed) each get events in their own language; a build whose exit status a pipe
// hid still counts as failed; the `--budget 400` text of a graded fixture project holds no noise line.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSessions, type SessionSpec } from './support/logbook-sessions.js';
import { REPO, runCli, tempDir } from './support/cli.js';

interface Event {
  type: string;
  content: string;
  resolution?: string;
  rationale?: string;
}

const EXTRA = join(REPO, 'test', 'fixtures', 'real-extra');
const AIDER = join(REPO, '..', 'shared', 'fixtures', 'real', 'aider');
const JAPANESE = join(EXTRA, 'specstory', 'work20260104_01');
/** A real Chinese chat export of the held-out set's TUNE half (rules may be tuned on it). */
const CHINESE = join(REPO, 'bench', 'fixtures', 'logbook-heldout', 'specstory', 'shadcn-ui-sidebar-08-admin-dev');
const CHINESE_TUNE = join(CHINESE, '.specstory', 'history', '添加多选框保存功能讨论.md');
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;

/** A session with a plain decision of the user's and a failing test the agent then fixed. */
const session = (n: number, cwd: string, decision: string, cause: string, done: string): SessionSpec => ({
  id: `0000000${n}-aaaa-4aaa-8aaa-00000000000${n}`,
  cwd,
  start: `2026-03-0${n}T09:00:00.000Z`,
  turns: [
    { user: decision },
    { tool: 'Bash', input: { command: 'npm test' }, output: FAILING, failed: true },
    { assistant: cause },
    { tool: 'Edit', input: { file_path: `${cwd}/src/user.ts`, old_string: 'u.id', new_string: 'u?.id' }, output: 'ok' },
    { tool: 'Bash', input: { command: 'npm test' }, output: 'Tests  12 passed (12)' },
    { assistant: done },
  ],
});
const FAILING = "FAIL src/user.test.ts\nTypeError: Cannot read properties of undefined (reading 'id')";

const WRITTEN: Array<[string, SessionSpec, RegExp]> = [
  [
    'Chinese',
    session(
      1,
      '/work/zh',
      '决定改用 PostgreSQL，因为我们需要 JSONB 字段。',
      '原因是 `user` 为空时仍然读取了 `id` 字段。',
      '已修复，测试全部通过。',
    ),
    HAN,
  ],
  [
    'Japanese',
    session(
      2,
      '/work/ja',
      'データベースは、PostgreSQL を使います。',
      '原因は `user` が null のときに `id` を読んでいたことです。',
      '修正しました。テストはすべて通ります。',
    ),
    KANA,
  ],
  [
    'Korean',
    session(
      3,
      '/work/ko',
      'JSONB가 필요하기 때문에 데이터베이스는 PostgreSQL로 전환합니다.',
      '원인은 `user`가 null일 때 `id`를 읽었기 때문입니다.',
      '수정했습니다. 이제 테스트가 모두 통과합니다.',
    ),
    /\p{Script=Hangul}/u,
  ],
  [
    'Spanish',
    session(
      4,
      '/work/es',
      'Cambiamos a PostgreSQL porque necesitamos columnas JSONB.',
      'El problema era que `user` puede ser null y leíamos `id` igualmente.',
      'Ya funciona: arreglado, todos los tests pasan.',
    ),
    /\b(?:porque|problema|arreglado|necesitamos)\b/,
  ],
];

let env: Record<string, string>;
const logbook = async (project: string): Promise<Event[]> => {
  const run = await runCli(['logbook', '--project', project, '--format', 'json'], env);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { timeline: Event[] }).timeline;
};

beforeAll(async () => {
  const home = tempDir('strata-logbook-lang-');
  env = { STRATA_HOME: join(home, 'data'), HOME: home };
  const piped: SessionSpec = {
    id: '00000009-aaaa-4aaa-8aaa-000000000009',
    cwd: '/work/piped',
    start: '2026-03-09T09:00:00.000Z',
    turns: [
      { user: 'Make the dashboard compile.' },
      { tool: 'Bash', input: { command: 'npm run build 2>&1 | head -30' }, output: BUILD_ERROR },
      { assistant: 'The dashboard imports `Radar` twice.' },
      {
        tool: 'Edit',
        input: { file_path: '/work/piped/src/Dashboard.tsx', old_string: 'Radar, Radar', new_string: 'Radar' },
        output: 'ok',
      },
      { tool: 'Bash', input: { command: 'npm run build 2>&1 | head -30' }, output: '✓ Compiled successfully' },
    ],
  };
  const dir = writeSessions(home, [...WRITTEN.map(([, s]) => s), piped]);
  const ingested = await runCli(['ingest', dir, JAPANESE, join(EXTRA, 'codex'), AIDER, CHINESE_TUNE], env);
  expect(ingested.code, ingested.stderr).toBe(0);
});
const BUILD_ERROR = "> app@1.0.0 build\nsrc/Dashboard.tsx(3,10): error TS2300: Duplicate identifier 'Radar'.";

describe('the offline logbook in any language', () => {
  it.each(WRITTEN)('%s: the decision and the fixed bug are events in the language', async (_l, spec, script) => {
    const events = await logbook(spec.cwd);
    const decision = events.find((e) => e.type === 'decision');
    expect(decision?.content).toBe(spec.turns[0] && 'user' in spec.turns[0] ? spec.turns[0].user : '');
    expect(decision?.content).toMatch(script);
    const bug = events.find((e) => e.type === 'bug');
    expect(bug?.content).toContain('`npm test` failed');
    expect(bug?.resolution).toMatch(script);
  });

  it('a real Japanese session: the decisions of its requirements and of a push, in Japanese', async () => {
    const events = await logbook(JAPANESE);
    expect(events.length).toBeGreaterThanOrEqual(1);
    for (const e of events) expect(e.content).toMatch(KANA);
    const ssh = events.find((e) => e.content.includes('SSH URL'));
    expect(ssh?.type).toBe('decision');
    expect(ssh?.rationale).toBe('認証エラー');
  });

  it('a real Chinese session gets its requests and fixed errors in Chinese', async () => {
    const events = await logbook(CHINESE);
    expect(events.filter((e) => e.type === 'decision').length).toBeGreaterThanOrEqual(1);
    // A pasted error stays as printed; the words around it are the session's.
    for (const e of events) expect(`${e.content} ${e.resolution ?? ''}`).toMatch(HAN);
    const ssr = events.find((e) => e.content.includes('Text content does not match server-rendered HTML'));
    expect(ssr?.type).toBe('bug');
    expect(ssr?.resolution).toMatch(HAN);
  });

  it('a real Chinese investigation that changed nothing logs no event', async () => {
    expect(await logbook('/Users/wjx/qz-cli')).toEqual([]);
  });

  it('a piped build that printed a compiler error failed, and the edit fixed it', async () => {
    const [bug] = await logbook('/work/piped');
    expect(bug?.type).toBe('bug');
    expect(bug?.content).toContain('error TS2300');
    expect(bug?.resolution).toBe('edited src/Dashboard.tsx');
  });

  it('the --budget 400 text of a graded fixture project holds none of its events graded noise', async () => {
    const project = join(AIDER, 'aider-repo', 'tests', 'fixtures');
    await logbook(project);
    const grades = JSON.parse(readFileSync(join(REPO, 'bench', 'logbook-grades.json'), 'utf8')) as Record<
      string,
      string
    >;
    const noise = Object.entries(grades)
      .filter(([, g]) => g === 'noise')
      .map(([k]) => k.split('#').slice(3).join('#'));
    const run = await runCli(['logbook', 'show', '--project', project, '--budget', '400'], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n').slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatch(/^\d{4}-\d\d-\d\d (?:DECISION|BUG|FACT): /);
      for (const start of noise) expect(line).not.toContain(start);
    }
  });
});
