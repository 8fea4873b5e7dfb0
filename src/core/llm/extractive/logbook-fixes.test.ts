// A failure paired with its fix as one bug event: the edit tools of every agent strata reads count as
// edits, the fix needs evidence (the failing file edited, the command passing later, the user saying it
// works), and the fix names what changed and where.
import { describe, expect, it } from 'vitest';
import { agent, events, type Message, user } from '../../../../test/support/logbook-events.js';
import { isEditTool } from './logbook-evidence.js';
import { editedFiles } from './logbook-fixes.js';

const bugs = (messages: Message[]): Array<[string, string | null | undefined]> =>
  events(messages)
    .filter((e) => e.type === 'bug')
    .map((e) => [e.content, e.resolution]);

const pasted =
  "TypeError: Cannot read properties of undefined (reading 'reduce')\n" +
  '    at BookmarkContent (webpack-internal:///./src/components/bookmark-content.tsx:79:41)';

describe('extractive logbook: failures paired with their fixes', () => {
  it('counts the edit tools of editor exports and other agents as edits', () => {
    for (const name of [
      'search_replace',
      'edit_file',
      'edit_file_v2',
      'apply_patch',
      'replace',
      'write_file',
      'replace_in_file',
      'write_to_file',
      'StrReplaceFile',
      'WriteFile',
      'str_replace_editor',
      'copilot_replaceString',
      'copilot_createFile',
      'Create',
      'MultiEdit',
      'edit',
    ])
      expect(isEditTool(name), name).toBe(true);
    for (const name of ['read_file', 'Bash', 'run_terminal_cmd', 'grep', 'view'])
      expect(isEditTool(name), name).toBe(false);
  });

  it('pairs an error the user pastes with an editor export edit of the file it names', () => {
    const fix = agent(
      'Passed `getSelectedBookmarks() || []` so the list is never undefined.\n' +
        '→ search_replace: Tool use: search_replace • Edit file: /home/me/app/src/components/bookmark-content.tsx',
    );
    expect(
      bugs([user(`I get this error:\n\x60\x60\x60\n${pasted}\n\x60\x60\x60`), fix, user('add a settings drawer')]),
    ).toEqual([
      [
        "TypeError: Cannot read properties of undefined (reading 'reduce')",
        'Passed `getSelectedBookmarks() || []` so the list is never undefined. (in components/bookmark-content.tsx)',
      ],
    ]);
  });

  it('takes an edit of another file as a fix only when the user then says it works', () => {
    const report = user(`I get this error:\n\x60\x60\x60\n${pasted}\n\x60\x60\x60`);
    const other = agent(
      'Wrapped the app content in `ToastProvider` in the root layout.\n→ edit_file: src/app/layout.tsx',
    );
    expect(bugs([report, other, user('next, make the sidebar narrower')])).toEqual([]);
    expect(bugs([report, other, user('works now, thanks')]).map(([, fix]) => fix)).toEqual([
      'Wrapped the app content in `ToastProvider` in the root layout. (in app/layout.tsx)',
    ]);
    expect(bugs([report, other, user('still the same error')])).toEqual([]);
  });

  it('takes the failing command passing again as the evidence, and the change the agent states as the fix', () => {
    const found = bugs([
      agent('→ Bash: source ~/.bashrc && flow help 2>&1'),
      { role: 'tool', text: '← Bash FAILED: /bin/bash: line 1: flow: command not found', failed: true },
      agent('→ Bash: ln -sf ~/.claude/bin/flow.sh ~/.claude/bin/flow && ~/.claude/bin/flow help'),
      { role: 'tool', text: '← Bash: Usage: flow <command>' },
      agent('It works now. The issue was that the installer copied `flow.sh` but created no `flow` symlink.'),
    ]);
    expect(found).toEqual([
      [
        '`source ~/.bashrc && flow help 2>&1` failed: /bin/bash: line 1: flow: command not found',
        'The issue was that the installer copied `flow.sh` but created no `flow` symlink.',
      ],
    ]);
  });

  it('logs one bug for a failure hit three times, and none for an edit of a file the failure does not name', () => {
    const fail = [
      agent('→ Bash: npx tsc'),
      { role: 'tool' as const, text: '← Bash FAILED: src/app.ts(3,1): error TS2304: Cannot find name x', failed: true },
    ];
    const fixed = bugs([
      ...fail,
      ...fail,
      ...fail,
      agent('Declared `x` before its first use.\n→ Edit: /repo/src/app.ts'),
      { role: 'tool', text: '← Edit: updated' },
    ]);
    expect(fixed).toEqual([
      [
        '`npx tsc` failed: src/app.ts(3,1): error TS2304: Cannot find name x',
        'Declared `x` before its first use. (in src/app.ts)',
      ],
    ]);
    expect(
      bugs([...fail, agent('Updated the notes.\n→ Edit: /repo/NOTES.md'), { role: 'tool', text: '← Edit: ok' }]),
    ).toEqual([]);
  });

  it("keeps a failure of a read or search (a file not found while exploring) out of the project's bugs", () => {
    expect(
      bugs([
        agent('→ view: /home/me/dotfiles/.gitignore'),
        { role: 'tool', text: '← view FAILED: File not found: /home/me/dotfiles/.gitignore', failed: true },
        agent('Created a `.gitignore` for the dotfiles.\n→ write: /home/me/dotfiles/.gitignore'),
        { role: 'tool', text: '← write: ok' },
      ]),
    ).toEqual([]);
  });
});

describe('extractive logbook: a failing command run again in another form', () => {
  it('names the new form as the fix when it passes and nothing was edited', () => {
    const heredoc = 'git commit -m "$(cat <<\'EOF\' feat: add agent logs EOF )"';
    const found = events([
      user('commit this change'),
      agent(`→ Bash: ${heredoc}`),
      {
        role: 'tool',
        text:
          "← Bash FAILED: Exit code 1 … (eval):1: can't create temp file for here document: " +
          'operation not permitted',
        failed: true,
      },
      agent('→ Bash: git commit -m "feat: add agent logs" -m "- logs per task"'),
      { role: 'tool', text: '← Bash: [main a0a87fc] feat: add agent logs' },
    ]).filter((e) => e.type === 'bug');
    expect(found.map((e) => e.resolution)).toEqual([
      'ran it as `git commit -m "feat: add agent logs" -m "- logs per task"`',
    ]);
  });

  it("takes a naming rule the user states as the user's decision", () => {
    const rule =
      'One last refactor so PR titles follow this pattern "AGI-8: Context Handoff" and PR branches look like ' +
      '"feat/AGI-{n}" so I can match the requests to PRs';
    expect(events([user(rule)]).map((e) => [e.type, e.content])).toEqual([['decision', rule]]);
  });
});

describe('extractive logbook: findings the session went on to fix', () => {
  const review = agent(
    '리뷰 결과입니다.\n\n로컬 데스크탑 앱이 외부 CDN 폰트에 의존합니다.\n\n' +
      'Note that the release build requires network access to `fonts.googleapis.com` at startup.',
  );
  it('drops a finding as a present-tense fact once the user asks for the fix and an edit follows', () => {
    const edit = agent('→ Edit: /repo/src/main.js\n│+ import "@fontsource/inter";');
    expect(events([review, user('응 수정해줘'), edit]).filter((e) => e.type === 'fact')).toEqual([]);
    // Left unfixed, the findings stay facts.
    expect(events([review, user('thanks, noted')]).filter((e) => e.type === 'fact').length).toBeGreaterThan(0);
  });

  it("reads aider's whole-file edit (the file's name, then a fence) as an edit of that file", () => {
    const reply = agent(
      'Nuevo archivo de prueba para funciones de generación de señales:\nseniales/test/test_signals.py\n' +
        '````\nimport numpy as np\n\ndef test_cajon():\n    assert cajon(1) is not None\n````\n',
    );
    expect(editedFiles({ id: '1', ...reply })).toEqual(['seniales/test/test_signals.py']);
    // A name mentioned in prose, with a fence further down, is no edit.
    const shown = agent('Look at setup.py first.\n\nThen run:\n```\npython setup.py sdist\n```');
    expect(editedFiles({ id: '2', ...shown })).toEqual([]);
  });
});
