// An edit call reads in a chunk as a compact diff: only the changed lines, a few of each side, clipped.
import { describe, expect, it } from 'vitest';
import { editDiffLines } from './edit-lines.js';

describe('editDiffLines', () => {
  it('shows the changed lines of a replacement, not the lines both sides share', () => {
    const input = {
      file_path: '/repo/src/cache.ts',
      old_string: 'import x from "x";\nconst db = new Map();\nexport { db };',
      new_string: 'import x from "x";\nconst db = new Database(path);\nexport { db };',
    };
    expect(editDiffLines('Edit', input)).toEqual(['│- const db = new Map();', '│+ const db = new Database(path);']);
  });

  it('keeps a few lines of a long write and of a patch, and nothing for other tools', () => {
    const content = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    expect(editDiffLines('Write', { file_path: '/a.ts', content })).toEqual([
      '│+ line 0',
      '│+ line 1',
      '│+ line 2',
      '│+ line 3',
      '│+ … 6 more lines',
    ]);
    const patch = '*** Begin Patch\n*** Update File: a.py\n@@\n-old = 1\n+new = 2\n*** End Patch';
    expect(editDiffLines('apply_patch', { input: patch })).toEqual(['│- old = 1', '│+ new = 2']);
    expect(editDiffLines('Bash', { command: 'rm -rf x' })).toEqual([]);
  });
});
