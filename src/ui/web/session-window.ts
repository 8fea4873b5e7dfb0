// Owns drawing a session a window of messages at a time: the header, then about WINDOW messages around the one
// asked for, with buttons that draw the messages before and after. A 2,000-message session so costs what 100 cost;
// `reveal` draws any message on demand (a permalink, j/k, find), so nothing is out of reach.
import type { DetailBlock, SessionDetail } from '../../core/browse/session-detail.js';
import { h, sessionHref } from './dom.js';
import {
  type MessageContext,
  type Paired,
  type RenderOptions,
  renderMessage,
  renderSessionHeader,
  restReader,
} from './render-session.js';

const WINDOW = 100;
/** Messages drawn before the one asked for, so that it is not the first on the page. */
const LEAD = 10;

const plain = (text: string): Node => h('div', { class: 'text' }, text);

export interface SessionView {
  element: HTMLElement;
  detail: SessionDetail;
  /** Draws message `n` if it is not drawn; its element (or the message holding its result's call). */
  reveal(n: number): HTMLElement | null;
  /** The message after (`by` 1) or before (-1) `at` that has something to show. */
  step(at: number, by: 1 | -1): number | undefined;
  /** The message whose element shows message `n` (a result is drawn in its call's message). */
  shownIn(n: number): number;
}

/** The view of the session drawn last (the page's, or the exported file's). */
export let activeView: SessionView | undefined;

/** Results by their call's id, and where each call is: one pass over the data, nothing drawn. */
function pairResults(s: SessionDetail) {
  const callAt = new Map<string, number>();
  for (const m of s.messages)
    for (const b of m.blocks) if (b.kind === 'tool_call' && b.toolCallId) callAt.set(b.toolCallId, m.n);
  const results = new Map<string, Paired>();
  const paired = new Set<DetailBlock>();
  const callOf = new Map<number, number>();
  for (const m of s.messages) {
    for (const b of m.blocks) {
      const at = b.kind === 'tool_result' && b.toolCallId ? callAt.get(b.toolCallId) : undefined;
      if (at === undefined || results.has(b.toolCallId!)) continue;
      results.set(b.toolCallId!, { ...b, message: m.n });
      paired.add(b);
      if (!callOf.has(m.n)) callOf.set(m.n, at);
    }
  }
  // A message shows only if some block of it is not drawn in a call's fold.
  const visible = s.messages.map((m) => m.blocks.some((b) => !paired.has(b)));
  return { results, paired, callOf, visible };
}

export function renderSession(s: SessionDetail, options: RenderOptions): SessionView {
  const { results, paired, callOf, visible } = pairResults(s);
  // In the app a message number is the page's permalink; an exported file has only in-page anchors.
  const ctx: MessageContext = {
    results,
    paired,
    href: (n) => (options.links ? sessionHref(s.id, n) : `#m-${n}`),
    command: options.links ? `strata read ${s.id.slice(0, 8)}` : null,
    textOf: options.text ?? plain,
    restAt: restReader(s, options),
  };
  const total = s.messages.length;
  const list = h('div', { class: 'messages' });
  const earlier = h('button', { type: 'button', class: 'load-more earlier' });
  const later = h('button', { type: 'button', class: 'load-more later' });
  const element = h('div', { class: 'session' }, renderSessionHeader(s, options), earlier, list, later);
  // Drawn: messages lo..hi-1 (0-based indexes; message n is at n - 1).
  let lo = 0;
  let hi = 0;

  // A window never starts on a message whose results' calls sit before it: those are drawn with their calls.
  const startOf = (i: number) => {
    let at = Math.max(0, i);
    while (at > 0 && (callOf.get(at + 1) ?? at + 1) < at + 1) at = callOf.get(at + 1)! - 1;
    return at;
  };
  const draw = (from: number, to: number): Node[] => {
    const nodes: Node[] = [];
    for (let i = from; i < to; i++) {
      const el = renderMessage(s.messages[i]!, ctx);
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
  const drawEarlier = () => {
    const from = startOf(lo - WINDOW);
    // The page keeps its place: what was on screen stays there as messages are added above it.
    const before = list.getBoundingClientRect().top;
    list.prepend(...draw(from, lo));
    lo = from;
    label();
    window.scrollBy(0, list.getBoundingClientRect().top - before);
  };
  const drawLater = () => {
    const to = Math.min(total, hi + WINDOW);
    list.append(...draw(hi, to));
    hi = to;
    label();
  };
  earlier.addEventListener('click', drawEarlier);
  later.addEventListener('click', drawLater);
  drawWindow(0);

  const shownIn = (n: number) => (visible[n - 1] ? n : (callOf.get(n) ?? n));
  const view: SessionView = {
    element,
    detail: s,
    shownIn,
    reveal(n) {
      if (!Number.isInteger(n) || n < 1 || n > total) return null;
      const i = shownIn(n) - 1;
      if (i < lo - WINDOW || i >= hi + WINDOW) drawWindow(i - LEAD);
      while (i < lo) drawEarlier();
      while (i >= hi) drawLater();
      return document.getElementById(`m-${shownIn(n)}`);
    },
    step(at, by) {
      for (let n = at + by; n >= 1 && n <= total; n += by) if (visible[n - 1]) return n;
      return undefined;
    },
  };
  activeView = view;
  return view;
}
