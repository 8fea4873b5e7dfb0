import { describe, expect, it } from 'vitest';
import { editDiff } from './edit-diff.js';

describe('edit diffs', () => {
  it('shows an Edit as a unified diff of its strings', () => {
    expect(
      editDiff('Edit', {
        file_path: 'src/a.py',
        old_string: 'def a():\n    return 1\n',
        new_string: 'def a():\n    return 2\n',
      }),
    ).toBe(
      ['--- src/a.py', '+++ src/a.py', '@@ -1,2 +1,2 @@', ' def a():', '-    return 1', '+    return 2'].join('\n'),
    );
  });

  it('numbers a change deep in a long string from its start, with three lines of context', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`);
    const changed = [...lines];
    changed[499] = 'line 500 changed';
    const diff = editDiff('Edit', { file_path: 'f', old_string: lines.join('\n'), new_string: changed.join('\n') })!;
    expect(diff.split('\n').slice(2)).toEqual([
      '@@ -497,7 +497,7 @@',
      ' line 497',
      ' line 498',
      ' line 499',
      '-line 500',
      '+line 500 changed',
      ' line 501',
      ' line 502',
      ' line 503',
    ]);
  });

  it('shows every edit of a MultiEdit, a Write as added lines, and a Codex patch as given', () => {
    const multi = editDiff('MultiEdit', {
      file_path: 'x',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd' },
      ],
    })!;
    expect(multi.split('\n').filter((l) => l.startsWith('@@'))).toHaveLength(2);
    expect(editDiff('Write', { file_path: 'n.txt', content: 'one\ntwo' })).toBe(
      ['--- /dev/null', '+++ n.txt', '@@ -0,0 +1,2 @@', '+one', '+two'].join('\n'),
    );
    const patch = '*** Begin Patch\n*** Update File: a.ex\n@@\n-old\n+new\n*** End Patch';
    expect(editDiff('apply_patch', patch)).toBe(patch);
    expect(editDiff('shell', { command: ['apply_patch', patch] })).toBe(patch);
  });

  it('leaves other tools alone', () => {
    expect(editDiff('Bash', { command: 'ls' })).toBeUndefined();
    expect(editDiff('Edit', 'not json')).toBeUndefined();
  });
});
