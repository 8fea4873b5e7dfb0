import { describe, expect, it } from 'vitest';
import { prepareMessage } from './prepared-message.js';
import { TOOL_INPUT_IS_TEXT, storedToolInput, toolInputJson } from './tool-input.js';

describe('tool input storage', () => {
  it('stores an input whose JSON is the block text once, and reads it back', () => {
    const input = { command: 'git status', description: 'status' };
    const message = prepareMessage(
      {
        sessionKey: 's',
        key: 'k',
        role: 'assistant',
        kind: 'response',
        line: 1,
        blocks: [{ kind: 'tool_call', text: JSON.stringify(input), toolName: 'Bash', toolInput: input }],
      },
      'merge',
    );
    const block = message.blocks[0]!;
    expect(block.toolInput).toBe(TOOL_INPUT_IS_TEXT);
    expect(JSON.parse(toolInputJson(block.toolInput as string, block.text as string)!)).toEqual(input);
  });

  it('keeps an input that differs from the text, and no input stays null', () => {
    expect(storedToolInput('{"a":1}', 'a = 1')).toBe('{"a":1}');
    expect(toolInputJson('{"a":1}', 'a = 1')).toBe('{"a":1}');
    expect(storedToolInput(null, '')).toBeNull();
    expect(toolInputJson(null, 'text')).toBeNull();
  });
});
