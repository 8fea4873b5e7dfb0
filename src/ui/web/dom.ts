// Owns building DOM nodes. Every text goes in through text nodes (never innerHTML), so a transcript
// holding markup shows it as text: escaping is by construction, not by remembering to.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Text with every case-insensitive occurrence of `terms` wrapped in <mark>. */
export function highlighted(text: string, terms: string[]): Node {
  const frag = document.createDocumentFragment();
  const words = terms.map((t) => t.trim()).filter((t) => t.length > 1);
  if (words.length === 0) {
    frag.append(text);
    return frag;
  }
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  let last = 0;
  for (const m of text.matchAll(re)) {
    frag.append(text.slice(last, m.index), h('mark', {}, m[0]));
    last = m.index + m[0].length;
  }
  frag.append(text.slice(last));
  return frag;
}

export function formatNumber(n: number): string {
  if (n >= 1e9) return (n / 1e9).toFixed(1) + 'B';
  if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
  if (n >= 1e4) return (n / 1e3).toFixed(1) + 'k';
  return n.toLocaleString('en-US');
}

/** `2026-05-02T13:55:01Z` → `2026-05-02 13:55` (UTC, as stored). */
export function formatTime(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

export function sessionHref(id: string, message?: number): string {
  return `#/session/${encodeURIComponent(id)}${message ? `?m=${message}` : ''}`;
}

export function filesHref(path: string): string {
  return `#/files?path=${encodeURIComponent(path)}`;
}
