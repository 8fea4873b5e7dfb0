// Owns landing on one message of a drawn session (`?m=N&hl=words`): the message, or the call whose fold holds
// its result, is marked and scrolled to; folds holding the words (or that result) open; the words are marked.
import { h } from './dom.js';
import { buildFolds, unfold } from './fold.js';
import { activeView } from './session-window.js';

/** Wraps every case-insensitive occurrence of `words` in the text under `root` in <mark>. */
export function markWords(root: Element, words: string[]): void {
  const wanted = words.map((w) => w.trim()).filter((w) => w.length > 1);
  if (wanted.length === 0) return;
  const re = new RegExp(wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (!n.parentElement?.closest('mark')) texts.push(n as Text);
  for (const text of texts) {
    const value = text.data;
    // matchAll starts at the regex's lastIndex, which test() moves past the first match: reset it after.
    re.lastIndex = 0;
    if (!re.test(value)) continue;
    re.lastIndex = 0;
    const frag = document.createDocumentFragment();
    let last = 0;
    for (const m of value.matchAll(re)) {
      frag.append(value.slice(last, m.index), h('mark', {}, m[0]));
      last = m.index + m[0].length;
    }
    frag.append(value.slice(last));
    text.replaceWith(frag);
  }
}

export async function showMessage(root: Element, message: number, words: string[]): Promise<HTMLElement | null> {
  for (const el of root.querySelectorAll('.msg.target')) el.classList.remove('target');
  if (!message) return null;
  if (activeView?.element.isConnected) await activeView.reveal(message);
  const holder = root.querySelector<HTMLDetailsElement>(`details[data-result-message="${message}"]`);
  const el = document.getElementById(`m-${message}`) ?? holder?.closest<HTMLElement>('.msg') ?? null;
  if (!el) return null;
  el.classList.add('target');
  if (holder) unfold(holder);
  if (words.length) {
    buildFolds(el);
    const lower = words.map((w) => w.toLowerCase());
    for (const d of el.querySelectorAll<HTMLDetailsElement>('details')) {
      const text = (d.textContent ?? '').toLowerCase();
      if (lower.some((w) => w.length > 1 && text.includes(w))) unfold(d);
    }
    markWords(el, words);
  }
  el.scrollIntoView({ block: 'start' });
  return el;
}

/** The words to mark, from a route's `hl` parameter. */
export function wordsOf(params: URLSearchParams): string[] {
  return (params.get('hl') ?? '').split(/\s+/).filter(Boolean);
}
