// Owns the end of a block the server cut short: in the app a button reads the rest into it a page at a time
// (/api/block); an exported file, which stands alone, names the command that prints it whole.
import type { DetailBlock } from '../../core/browse/session-detail.js';
import { getJson } from './api.js';
import { h } from './dom.js';

export interface RestContext {
  /** In the app (the API is there to read from), not an exported file. */
  live: boolean;
  sessionId: string;
  /** The number of the message the block belongs to. */
  message: number;
}

/** A block's element, followed by what reads or names the rest of a cut text. */
export type RestOf = (b: DetailBlock, el: HTMLElement) => Node[];

const count = (n: number): string => n.toLocaleString('en-US');

/** `el` (showing the block's text) and, when the text was cut, what tells or reads the rest. */
export function withRest(b: DetailBlock, el: HTMLElement, ctx: RestContext): Node[] {
  const cut = b.cut;
  if (!cut) return [el];
  const command = `strata read ${ctx.sessionId.slice(0, 8)} ${ctx.message} --full --show ${b.field}`;
  let shown = cut.shown;
  const label = h('span', {}, `… ${count(cut.total - shown)} more characters`);
  if (!ctx.live) return [el, h('div', { class: 'muted cut' }, label, ` not in this file: ${command}`)];
  const button: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'more',
      onclick: () => {
        button.disabled = true;
        void getJson<{ text: string }>('block', { id: cut.id, offset: shown }).then(
          (page) => {
            el.append(page.text);
            shown += Array.from(page.text).length;
            if (shown >= cut.total || page.text === '') note.remove();
            else {
              label.textContent = `… ${count(cut.total - shown)} more characters`;
              button.disabled = false;
            }
          },
          (error: unknown) => {
            label.textContent = `could not read the rest: ${(error as Error).message}`;
          },
        );
      },
    },
    'show more',
  );
  const note = h('div', { class: 'muted cut' }, label, ' ', button);
  return [el, note];
}
