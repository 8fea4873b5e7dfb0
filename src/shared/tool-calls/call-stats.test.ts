import { describe, expect, it } from 'vitest';
import { addCall, emptyCallStats, isTypedText, mergeCallStats } from './call-stats.js';

describe('tool-call statistics', () => {
  it('counts calls and edits per file, and adds up the same when merged from parts', () => {
    const whole = emptyCallStats();
    const parts = [emptyCallStats(), emptyCallStats()];
    const calls: [string, unknown][] = [
      ['Bash', { command: 'git commit -m a && git -c x=y commit --amend' }],
      ['Edit', { file_path: 'constructor', old_string: 'a', new_string: 'b\nc' }],
      ['Write', { file_path: 'toString', content: 'one\ntwo' }],
      ['WebFetch', { url: 'https://example.org' }],
      ['Edit', { file_path: 'constructor', old_string: 'x\ny', new_string: '' }],
    ];
    calls.forEach(([name, input], i) => {
      addCall(whole, name, input);
      addCall(parts[i % 2]!, name, input);
    });
    const merged = emptyCallStats();
    for (const part of parts) mergeCallStats(merged, part);
    expect(merged).toEqual(whole);
    expect(whole).toMatchObject({ bashCalls: 1, webFetches: 1, commits: 2, linesAdded: 4, linesRemoved: 3 });
    expect({ ...whole.files }).toEqual({ constructor: 5, toString: 2 });
  });
});

describe('what a person typed', () => {
  it('rules out wrappers, JSON and Aider blanks as prompts for a title', () => {
    expect(isTypedText('fix the login bug')).toBe(true);
    expect(isTypedText('<command-name>/clear</command-name>')).toBe(false);
    expect(isTypedText('<user_shell_command>ls</user_shell_command>')).toBe(false);
    expect(isTypedText('{"tool":"x","args":[1]}')).toBe(false);
    expect(isTypedText('[{"type":"text"}]')).toBe(false);
    expect(isTypedText('<blank>')).toBe(false);
    expect(isTypedText('{ not json, a thought')).toBe(true);
  });
});
