// Owns find in a session: words looked up in the session's data (every message, every fold, drawn or not), then
// next/previous draw the message, open the folds holding the words and mark them. The browser's own find sees
// only what is drawn, so Ctrl+F on a session page goes to this box.
import type { DetailMessage } from '../../core/browse/session-detail.js';
import { h, sessionHref } from './dom.js';
import { buildFolds, unfold } from './fold.js';
import { pretty } from './render-session.js';
import type { SessionView } from './session-window.js';
import { markWords } from './target.js';

/** Each message's searchable text, lowercased, under the message that shows it (a result under its call). */
function haystacks(view: SessionView): Map<number, string> {
  const callAt = new Map<string, number>();
  for (const m of view.detail.messages)
    for (const b of m.blocks) if (b.kind === 'tool_call' && b.toolCallId) callAt.set(b.toolCallId, m.n);
  const texts = new Map<number, string[]>();
  const add = (n: number, text: string) => {
    const list = texts.get(n) ?? [];
    list.push(text.toLowerCase());
    texts.set(n, list);
  };
  for (const m of view.detail.messages as DetailMessage[])
    for (const b of m.blocks) {
      if (b.kind === 'tool_call') add(m.n, `${b.toolName ?? ''} ${b.summary ?? ''}\n${pretty(b.input ?? b.text)}`);
      else if (b.kind === 'tool_result' && b.toolCallId && callAt.has(b.toolCallId))
        add(callAt.get(b.toolCallId)!, b.text);
      else add(m.n, b.text);
    }
  return new Map([...texts].map(([n, list]) => [n, list.join('\n')]));
}

export function findBar(view: SessionView): HTMLElement {
  const box = h('input', {
    type: 'search',
    name: 'find',
    placeholder: 'find in this session',
    'aria-label': 'find in this session',
    autocomplete: 'off',
  });
  const count = h('span', { class: 'find-count', 'aria-live': 'polite' });
  const previous = h('button', { type: 'button', class: 'find-previous' }, 'previous');
  const next = h('button', { type: 'button', class: 'find-next' }, 'next');
  const form = h('form', { class: 'find', role: 'search' }, box, previous, next, count);
  let texts: Map<number, string> | undefined;
  let query = '';
  let hits: number[] = [];
  let at = -1;
  let mark = -1;

  const go = (by: 1 | -1) => {
    const wanted = box.value.trim().toLowerCase();
    if (wanted.length < 2) {
      count.textContent = wanted ? 'type two letters or more' : '';
      return;
    }
    if (wanted !== query) {
      texts ??= haystacks(view);
      query = wanted;
      hits = [...texts].filter(([, text]) => text.includes(wanted)).map(([n]) => n);
      hits.sort((a, b) => a - b);
      at = by > 0 ? -1 : hits.length;
      mark = -1;
    }
    if (hits.length === 0) {
      count.textContent = 'not found';
      return;
    }
    // Within a message, step through its marks; past its last (or first), on to the next message with marks.
    if (at >= 0 && at < hits.length) {
      const marks = marksIn(hits[at]!);
      if (mark + by >= 0 && mark + by < marks.length) {
        mark += by;
        return show(marks, hits[at]!);
      }
    }
    for (let tries = 0; tries < hits.length; tries++) {
      at = (at + by + hits.length) % hits.length;
      const marks = marksIn(hits[at]!);
      if (marks.length === 0) continue;
      mark = by > 0 ? 0 : marks.length - 1;
      return show(marks, hits[at]!);
    }
    count.textContent = 'not found';
  };

  /** Draws message n, opens its folds holding the words, marks them; the marks in page order. */
  const marksIn = (n: number): HTMLElement[] => {
    const el = view.reveal(n);
    if (!el) return [];
    buildFolds(el);
    for (const d of el.querySelectorAll<HTMLDetailsElement>('details'))
      if ((d.textContent ?? '').toLowerCase().includes(query)) unfold(d);
    markWords(el, [query]);
    return [...el.querySelectorAll<HTMLElement>('mark')].filter((m) => m.textContent?.toLowerCase() === query);
  };

  const show = (marks: HTMLElement[], n: number) => {
    for (const m of document.querySelectorAll('mark.current')) m.classList.remove('current');
    const current = marks[mark]!;
    current.classList.add('current');
    current.scrollIntoView({ block: 'center' });
    count.textContent = `message ${at + 1} of ${hits.length} with “${query}”`;
    history.replaceState(null, '', sessionHref(view.detail.id, n));
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go(1);
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      go(e.shiftKey ? -1 : 1);
    }
  });
  previous.addEventListener('click', () => go(-1));
  next.addEventListener('click', () => go(1));
  return form;
}

// Ctrl+F (Cmd+F) on a session page: this box, which reaches folded and undrawn text; pressed again, the browser's.
document.addEventListener('keydown', (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.key !== 'f') return;
  const box = document.querySelector<HTMLInputElement>('form.find input[name=find]');
  if (!box || document.activeElement === box) return;
  e.preventDefault();
  box.focus();
  box.select();
});
