import { applyPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { editDiff } from './edit-diff.js';

/**
 * What `read` wrote with the diff library for every edit: the lines both sides share at the start and
 * end, beyond three lines of context, cut; the rest diffed by the library.
 */
function libraryDiff(before: string, after: string): string {
  const nl = (t: string) => (t === '' || t.endsWith('\n') ? t : t + '\n');
  const a = nl(before).split('\n');
  const b = nl(after).split('\n');
  let head = 0;
  while (head < a.length - 1 && head < b.length - 1 && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - 1 - head && tail < b.length - 1 - head && a[a.length - 2 - tail] === b[b.length - 2 - tail])
    tail++;
  const skip = Math.max(0, head - 3);
  const keep = Math.max(0, tail - 3);
  const cut = (lines: string[]) =>
    lines
      .slice(skip, lines.length - 1 - keep)
      .map((l) => `${l}\n`)
      .join('');
  const lines = structuredPatch('a', 'b', cut(a), cut(b), '', '', { context: 3 }).hunks.flatMap((h) => [
    `@@ -${(h.oldLines === 0 ? h.oldStart - 1 : h.oldStart) + skip},${h.oldLines} ` +
      `+${(h.newLines === 0 ? h.newStart - 1 : h.newStart) + skip},${h.newLines} @@`,
    ...h.lines.filter((l) => !l.startsWith('\\')),
  ]);
  return ['--- f', '+++ f', ...lines].join('\n');
}

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

  it('writes edits that add, remove or replace one run of lines as the diff library does', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let next = 0;
    const distinct = (n: number) => Array.from({ length: n }, () => `l${next++}`).join('\n');
    const repeating = (n: number) => Array.from({ length: n }, () => `l${random(3)}`).join('\n');
    for (let i = 0; i < 1000; i++) {
      const text = i % 2 === 0 ? distinct : repeating;
      const base = text(random(12));
      const lines = base === '' ? [] : base.split('\n');
      const at = random(lines.length + 1);
      const piece = text(1 + random(5)).split('\n');
      const grown = [...lines.slice(0, at), ...piece, ...lines.slice(at)].join('\n');
      const shrunk = [...lines.slice(0, at), ...lines.slice(at + 1 + random(3))].join('\n');
      const replaced = [...lines.slice(0, at), ...piece, ...lines.slice(at + 1 + random(3))].join('\n');
      const moved = [...lines.slice(at), ...lines.slice(0, at)].join('\n');
      for (const [o, n] of [
        [base, grown],
        [grown, base],
        [base, shrunk],
        [base, replaced],
        [base, moved],
        ['', base],
      ] as const) {
        const diff = editDiff('Edit', { file_path: 'f', old_string: o, new_string: n })!;
        expect(diff, `${o} -> ${n}`).toBe(libraryDiff(o, n));
        const nl = (t: string) => (t === '' || t.endsWith('\n') ? t : t + '\n');
        expect(applyPatch(nl(o), diff), `${o} -> ${n}`).toBe(nl(n));
      }
    }
  });

  it('leaves other tools alone', () => {
    expect(editDiff('Bash', { command: 'ls' })).toBeUndefined();
    expect(editDiff('Edit', 'not json')).toBeUndefined();
  });
});
