// Owns drawing a message's text as Markdown. markdown-it runs with `html: false`, so any markup in a transcript
// is escaped into text; links keep only http(s), mailto and in-page targets; images are off (nothing is
// fetched). This is the one place HTML is parsed from a string, and the string comes from that renderer alone.
import MarkdownIt from 'markdown-it';
import { h } from './dom.js';

const md = new MarkdownIt({ html: false, linkify: false, breaks: true });
md.disable(['image']);
md.validateLink = (url: string) => /^(https?:\/\/|mailto:|#)/i.test(url.trim());

export function renderMarkdown(text: string): HTMLElement {
  const el = h('div', { class: 'text md' });
  el.innerHTML = md.render(text);
  for (const a of el.querySelectorAll('a')) {
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
  }
  return el;
}
