// Owns find in a session: words looked up in the session's data by the server (every message, every fold, read
// or not), then next/previous read and draw the message, open the folds holding the words and mark them. The
// browser's own find sees only what is drawn, so Ctrl+F on a session page goes to this box.
import { h, sessionHref } from './dom.js';
import { buildFolds, unfold } from './fold.js';
import type { SessionView } from './session-window.js';
import { markWords } from './target.js';

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
  let query = '';
  let hits: number[] = [];
  let at = -1;
  let mark = -1;

  const go = async (by: 1 | -1) => {
    const wanted = box.value.trim().toLowerCase();
    if (wanted.length < 2) {
      count.textContent = wanted ? 'type two letters or more' : '';
      return;
    }
    if (wanted !== query) {
      count.textContent = 'finding…';
      try {
        hits = await view.source.find(wanted);
      } catch (error) {
        count.textContent = `could not find: ${(error as Error).message}`;
        return;
      }
      // Typed on while the answer came: the newer words are looked up by their own Enter.
      if (box.value.trim().toLowerCase() !== wanted) return;
      query = wanted;
      at = by > 0 ? -1 : hits.length;
      mark = -1;
    }
    if (hits.length === 0) {
      count.textContent = 'not found';
      return;
    }
    // Within a message, step through its marks; past its last (or first), on to the next message with marks.
    if (at >= 0 && at < hits.length) {
      const marks = await marksIn(hits[at]!);
      if (mark + by >= 0 && mark + by < marks.length) {
        mark += by;
        return show(marks, hits[at]!);
      }
    }
    for (let tries = 0; tries < hits.length; tries++) {
      at = (at + by + hits.length) % hits.length;
      const marks = await marksIn(hits[at]!);
      if (marks.length === 0) continue;
      mark = by > 0 ? 0 : marks.length - 1;
      return show(marks, hits[at]!);
    }
    count.textContent = 'not found';
  };

  /** Draws message n, opens its folds holding the words, marks them; the marks in page order. */
  const marksIn = async (n: number): Promise<HTMLElement[]> => {
    const el = await view.reveal(n);
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
    history.replaceState(null, '', sessionHref(view.source.header.id, n));
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go(1);
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void go(e.shiftKey ? -1 : 1);
    }
  });
  previous.addEventListener('click', () => void go(-1));
  next.addEventListener('click', () => void go(1));
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
