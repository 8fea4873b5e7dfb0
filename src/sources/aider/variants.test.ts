// Aider histories written by other versions and platforms (Aider-AI/aider aider/reasoning_tags.py, aider/io.py):
// CRLF line ends around thinking blocks, a closing tag with trailing spaces, and `<think>` reasoning blocks of
// models whose reasoning tag is configured by name.
import { describe, expect, it } from 'vitest';
import { parseAiderHistory } from './parser.js';

const TAG = 'thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b';
const PATH = '/p/.aider.chat.history.md';
const shape = (text: string) =>
  parseAiderHistory(text, PATH).messages.map((m) => [m.kind, m.blocks.map((b) => [b.kind, b.text])]);

describe('aider: reasoning blocks', () => {
  const history = [
    '# aider chat started at 2026-11-01 10:00:00',
    '',
    '#### explain the bug  ',
    '',
    `<${TAG}>`,
    '',
    'weighing options',
    '',
    `</${TAG}>  `,
    '',
    'The bug is in parse().',
    '',
  ].join('\n');

  it('closes a thinking block whose closing tag has trailing spaces', () => {
    expect(shape(history)).toEqual([
      ['prompt', [['text', 'explain the bug']]],
      [
        'response',
        [
          ['thinking', 'weighing options'],
          ['text', 'The bug is in parse().'],
        ],
      ],
    ]);
  });

  it('reads the same history with CRLF line ends the same way, without a malformed report', () => {
    const out = parseAiderHistory(history.replace(/\n/g, '\r\n'), PATH);
    expect(out.malformed).toEqual([]);
    expect(shape(history.replace(/\n/g, '\r\n'))).toEqual(shape(history));
  });

  it('reads <think> blocks of a named reasoning tag as thinking', () => {
    const text = ['#### why?', '', '<think>', 'because', '</think>', '', 'Answer.', ''].join('\n');
    expect(shape(text)).toEqual([
      ['prompt', [['text', 'why?']]],
      [
        'response',
        [
          ['thinking', 'because'],
          ['text', 'Answer.'],
        ],
      ],
    ]);
  });
});
