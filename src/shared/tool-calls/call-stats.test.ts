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

describe('edits of Cline and Copilot CLI tools', () => {
  it('counts write_to_file, replace_in_file, create, str_replace_editor and edit with old_str/new_str', () => {
    const stats = emptyCallStats();
    addCall(stats, 'write_to_file', { absolutePath: '/a.ts', content: 'x\ny\n' });
    addCall(stats, 'replace_in_file', {
      absolutePath: '/a.ts',
      diff: '------- SEARCH\nx\n=======\nz\nw\n+++++++ REPLACE',
    });
    addCall(stats, 'create', { path: '/b.ts', file_text: 'one' });
    addCall(stats, 'str_replace_editor', { command: 'view', path: '/c.ts' });
    addCall(stats, 'str_replace_editor', { command: 'str_replace', path: '/c.ts', old_str: 'a\nb', new_str: 'c' });
    addCall(stats, 'edit', { path: '/d.ts', old_str: 'a', new_str: 'b\nc' });
    addCall(stats, 'powershell', { command: 'git commit -m x' });
    addCall(stats, 'execute_command', { command: 'ls' });
    expect(stats).toMatchObject({ bashCalls: 2, commits: 1, linesAdded: 8, linesRemoved: 4 });
    expect({ ...stats.files }).toEqual({ '/a.ts': 5, '/b.ts': 1, '/c.ts': 3, '/d.ts': 3 });
  });
});

describe('edits of Goose tools', () => {
  it('counts developer__shell, developer__text_editor (write, str_replace, insert) and edit with before/after', () => {
    const stats = emptyCallStats();
    addCall(stats, 'developer__shell', { command: 'git commit -m x' });
    addCall(stats, 'developer__text_editor', { command: 'view', path: '/a.rs' });
    addCall(stats, 'developer__text_editor', { command: 'write', path: '/a.rs', file_text: 'one\ntwo' });
    addCall(stats, 'developer__text_editor', {
      command: 'str_replace',
      path: '/a.rs',
      old_str: 'one',
      new_str: 'x\ny',
    });
    addCall(stats, 'developer__text_editor', { command: 'insert', path: '/b.rs', insert_line: 1, new_str: 'z' });
    addCall(stats, 'shell', { command: 'ls' });
    addCall(stats, 'edit', { path: '/c.rs', before: 'a\nb', after: 'c' });
    expect(stats).toMatchObject({ bashCalls: 2, commits: 1, linesAdded: 6, linesRemoved: 3 });
    expect({ ...stats.files }).toEqual({ '/a.rs': 5, '/b.rs': 1, '/c.rs': 3 });
  });
});
