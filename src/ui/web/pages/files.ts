// Owns the Files page: for one path, the messages that created, edited, read, ran a command on or
// discussed it, newest first, with the diffs of the edits ("why does this code look like this").
import type { FileHistory } from '../../../core/file-history/file-history.js';
import { getJson } from '../api.js';
import { fill, formatTime, h, sessionHref } from '../dom.js';
import { renderHunk } from '../render-diff.js';
import { setParams, type Route } from '../route.js';
import { clip, readableExcerpt } from '../snippet.js';

export async function filesPage(root: HTMLElement, route: Route): Promise<void> {
  const input = h('input', {
    type: 'search',
    name: 'path',
    placeholder: 'a file path: absolute, relative or Windows form',
    value: route.params.get('path') ?? '',
    'aria-label': 'path',
  });
  const line = h('input', {
    type: 'number',
    name: 'line',
    min: 1,
    placeholder: 'line',
    value: route.params.get('line') ?? '',
    'aria-label': 'line',
  });
  const results = h('div', { class: 'results' });
  const run = async () => {
    const path = input.value.trim();
    setParams('files', { path, line: line.value || undefined });
    if (!path)
      return fill(results, h('p', { class: 'muted' }, "Type a path, or open one from a session's “files touched”."));
    fill(results, h('p', { class: 'muted' }, 'looking…'));
    const r = await getJson<FileHistory>('files', { path, line: line.value || undefined });
    fill(
      results,
      h(
        'p',
        { class: 'muted' },
        `${r.total} message${r.total === 1 ? '' : 's'}${
          r.entries.length < r.total ? ` (newest ` + `${r.entries.length} shown)` : ''
        }`,
      ),
      r.entries.map((e) =>
        h(
          'section',
          { class: `file-entry action-${e.action}` },
          h(
            'header',
            {},
            h('span', { class: `badge action ${e.action}` }, e.action),
            h(
              'a',
              { href: sessionHref(e.sessionId, e.message) },
              `${e.title ? clip(e.title, 80) : e.shortId} #${e.message}`,
            ),
            h(
              'span',
              { class: 'muted' },
              ` ${e.agent} · ${formatTime(e.timestamp)}${e.toolName ? ' · ' + e.toolName : ''}`,
            ),
          ),
          e.excerpt ? h('div', { class: 'excerpt' }, readableExcerpt(e.excerpt)) : null,
          e.hunks.map((hunk) => renderHunk(hunk)),
        ),
      ),
    );
  };
  const form = h(
    'form',
    {
      class: 'filters',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void run();
      },
    },
    input,
    line,
    h('button', { type: 'submit' }, 'Show history'),
  );
  fill(root, h('h1', {}, 'Files'), form, results);
  await run();
}
