// Choices users state in their own turns, in the five languages, become decisions; requests to explain or
// look, usage text they pasted, and the same words from the agent do not.
import { describe, expect, it } from 'vitest';
import { events, type Message } from '../../../../test/support/logbook-events.js';

const user = (text: string): Message => ({ role: 'user', text });

describe("decisions from the user's own turns", () => {
  it('takes a stated choice in English, Chinese, Japanese, Korean and Spanish', () => {
    const said = [
      'use `zod` to validate config.json before the server starts',
      'The main menu has only one Start Game button for every player.',
      '请使用 shadcn 的 Select 组件来实现多选框。',
      '範囲選択は矩形のドラッグ操作とします。',
      '취소 버튼을 누르면 선택 취소로 해줘.',
      'Usa SQLite para guardar las partidas del juego.',
    ];
    for (const text of said)
      expect(
        events([user(text)]).map((e) => e.type),
        text,
      ).toEqual(['decision']);
  });

  it('takes no choice from a question, a request to explain, pasted usage text or the agent', () => {
    const none = [
      user('use zod or yup to validate the config file?'),
      user('use the project conventions for the new screen'),
      user('explain why we use zod to validate the config file'),
      user('Use /help <question> for help, run "aider --help" to see the command line args'),
      { role: 'assistant', text: 'Use zod to validate the config file before the server starts.' },
    ];
    for (const m of none) expect(events([m]), m.text).toEqual([]);
  });

  it('reads a plan the user handed over as theirs', () => {
    const plan = [
      'Implement the following plan:',
      '',
      '# Plan: export command',
      '## Context',
      'The export command must write to stdout when the output flag is missing.',
      '## Changes',
      '### 1. CLI',
      '- Switch to `commander` for argument parsing instead of the hand-written parser',
      '### 2. Output',
      '- Keep the JSON format for the export file',
      '### 3. Tests',
      '- Add tests for the export command',
      'x'.repeat(1200),
    ].join('\n');
    const found = events([user(plan)]);
    expect(found.map((e) => e.type)).toContain('decision');
  });
});
