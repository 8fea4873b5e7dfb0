// Owns drawing a session a window of messages at a time: the header, then about WINDOW messages around the one
// asked for, with buttons that draw the messages before and after. A 2,000-message session so costs what 100 cost;
// `reveal` reads and draws any message on demand (a permalink, j/k, find), so nothing is out of reach.
import { PAGE_LEAD, PAGE_MESSAGES, shownIn, windowStart } from '../../core/browse/session-pages.js';
import { h, sessionHref } from './dom.js';
import {
  type MessageContext,
  type RenderOptions,
  renderMessage,
  renderSessionHeader,
  restReader,
} from './render-session.js';
import type { SessionSource } from './session-source.js';

const WINDOW = PAGE_MESSAGES;

const plain = (text: string): Node => h('div', { class: 'text' }, text);

export interface SessionView {
  element: HTMLElement;
  source: SessionSource;
  /** Reads and draws message `n` if it is not drawn; its element (or the message holding its result's call). */
  reveal(n: number): Promise<HTMLElement | null>;
  /** The message after (`by` 1) or before (-1) `at` that has something to show. */
  step(at: number, by: 1 | -1): number | undefined;
  /** The message whose element shows message `n` (a result is drawn in its call's message). */
  shownIn(n: number): number;
}

/** The view of the session drawn last (the page's, or the exported file's). */
export let activeView: SessionView | undefined;

/** Draws the session from the window `source` holds from message index `start` (0-based). */
export function renderSession(source: SessionSource, options: RenderOptions, start = 0): SessionView {
  const s = source.header;
  // In the app a message number is the page's permalink; an exported file has only in-page anchors.
  const ctx: MessageContext = {
    results: source.results,
    href: (n) => (options.links ? sessionHref(s.id, n) : `#m-${n}`),
    command: options.links ? `strata read ${s.id.slice(0, 8)}` : null,
    textOf: options.text ?? plain,
    restAt: restReader(s, options),
  };
  const total = source.total;
  const list = h('div', { class: 'messages' });
  const earlier = h('button', { type: 'button', class: 'load-more earlier' });
  const later = h('button', { type: 'button', class: 'load-more later' });
  const element = h('div', { class: 'session' }, renderSessionHeader(s, total, options), earlier, list, later);
  // Drawn: messages lo..hi-1 (0-based indexes; message n is at n - 1).
  let lo = 0;
  let hi = 0;
  // Reading and drawing run one at a time, in the order asked.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const run = queue.then(op);
    queue = run.catch(() => undefined);
    return run;
  };

  const startOf = (i: number) => windowStart(source.callOf, i);
  const draw = (from: number, to: number): Node[] => {
    const nodes: Node[] = [];
    for (let i = from; i < to; i++) {
      const m = source.message(i);
      const el = m ? renderMessage(m, ctx) : null;
      if (el) nodes.push(el);
    }
    return nodes;
  };
  const label = () => {
    earlier.hidden = lo === 0;
    later.hidden = hi >= total;
    earlier.textContent = `show ${Math.min(WINDOW, lo)} earlier messages (${lo} before #${lo + 1})`;
    later.textContent = `show ${Math.min(WINDOW, total - hi)} later messages (${total - hi} after #${hi})`;
  };
  const drawWindow = (from: number) => {
    lo = startOf(from);
    hi = Math.min(total, lo + WINDOW);
    list.replaceChildren(...draw(lo, hi));
    label();
  };
  const drawEarlier = async () => {
    const from = startOf(lo - WINDOW);
    await source.load(from, lo);
    // The page keeps its place: what was on screen stays there as messages are added above it.
    const before = list.getBoundingClientRect().top;
    list.prepend(...draw(from, lo));
    lo = from;
    label();
    window.scrollBy(0, list.getBoundingClientRect().top - before);
  };
  const drawLater = async () => {
    const to = Math.min(total, hi + WINDOW);
    await source.load(hi, to);
    list.append(...draw(hi, to));
    hi = to;
    label();
  };
  const busy = (button: HTMLButtonElement, op: () => Promise<void>) => async () => {
    button.disabled = true;
    try {
      await op();
    } finally {
      button.disabled = false;
    }
  };
  earlier.addEventListener('click', () => void serial(busy(earlier, drawEarlier)));
  later.addEventListener('click', () => void serial(busy(later, drawLater)));
  drawWindow(start);

  const shown = (n: number) => shownIn(source, n);
  const view: SessionView = {
    element,
    source,
    shownIn: shown,
    reveal: (n) =>
      serial(async () => {
        if (!Number.isInteger(n) || n < 1 || n > total) return null;
        const i = shown(n) - 1;
        if (i < lo - WINDOW || i >= hi + WINDOW) {
          const from = startOf(i - PAGE_LEAD);
          await source.load(from, from + WINDOW);
          drawWindow(from);
        }
        while (i < lo) await drawEarlier();
        while (i >= hi) await drawLater();
        return document.getElementById(`m-${shown(n)}`);
      }),
    step(at, by) {
      for (let n = at + by; n >= 1 && n <= total; n += by) if (!source.hidden.has(n)) return n;
      return undefined;
    },
  };
  activeView = view;
  return view;
}
