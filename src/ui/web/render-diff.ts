// Owns how an edit's diff hunk is drawn: a header naming the file and what was done, then its lines
// coloured by op ('+' added, '-' removed, ' ' context).
import type { EditHunk } from '../../core/file-history/edit-hunks.js';
import { h } from './dom.js';

const MAX_LINES = 400;

export function renderHunk(hunk: EditHunk & { range?: { start: number; end: number } }, pathNode?: Node): HTMLElement {
  const lines = hunk.lines.slice(0, MAX_LINES);
  const added = hunk.lines.filter((l) => l.startsWith('+')).length;
  const removed = hunk.lines.filter((l) => l.startsWith('-')).length;
  return h(
    'div',
    { class: 'diff' },
    h(
      'div',
      { class: 'diff-head' },
      h('span', { class: `op op-${hunk.op}` }, hunk.op),
      pathNode ?? h('span', { class: 'path' }, hunk.path),
      h(
        'span',
        { class: 'counts' },
        h('span', { class: 'add' }, `+${added}`),
        ' ',
        h('span', { class: 'del' }, `-${removed}`),
      ),
      hunk.range ? h('span', { class: 'muted' }, `now at lines ${hunk.range.start}-${hunk.range.end}`) : null,
    ),
    h(
      'pre',
      // Focusable so a diff taller than its box scrolls from the keyboard.
      { class: 'diff-body', tabindex: 0, 'aria-label': `diff of ${hunk.path}` },
      lines.map((line) =>
        h(
          'div',
          { class: line.startsWith('+') ? 'ln add' : line.startsWith('-') ? 'ln del' : 'ln ctx' },
          line === '' ? ' ' : line,
        ),
      ),
      hunk.lines.length > MAX_LINES
        ? h('div', { class: 'ln more' }, `… ${hunk.lines.length - MAX_LINES} more lines`)
        : null,
    ),
  );
}
