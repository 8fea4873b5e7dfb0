import { describe, expect, it } from 'vitest';
import { candidateSentences } from './rank.js';
import { segmentSentences } from './text.js';

describe('candidateSentences', () => {
  it('leaves out bare links and chat commands: they are actions, not sentences about the work', () => {
    const content = [
      'User: /run pytest tests/basic/test_commands.py -k test_cmd_read_with_external_file',
      'Assistant: The parser drops the trailing comma before the closing brace.',
      'See https://aider.chat/docs/troubleshooting.html for the troubleshooting guide.',
      '- https://aider.chat/docs/troubleshooting.html',
    ].join('\n');
    const texts = candidateSentences(segmentSentences(content)).map((s) => s.text);
    expect(texts).toEqual([
      'The parser drops the trailing comma before the closing brace.',
      'See https://aider.chat/docs/troubleshooting.html for the troubleshooting guide.',
    ]);
  });
});
