// Owns the Session page: one session read and drawn a window at a time (session-window.ts), at message `?m=N`
// when given, with the words of `?hl=` marked there, and a find bar that reaches every message and fold.
import type { SessionOutline } from '../../../core/browse/session-pages.js';
import { firstRead } from '../first-read.js';
import { fill, h } from '../dom.js';
import { findBar } from '../find.js';
import { renderMarkdown } from '../markdown.js';
import type { Route } from '../route.js';
import { renderSession } from '../session-window.js';
import { outlineSource } from '../session-source.js';
import { showMessage, wordsOf } from '../target.js';

export async function sessionPage(root: HTMLElement, route: Route): Promise<void> {
  fill(root, h('p', { class: 'muted' }, 'loading…'));
  // The header and the window around `m`; the rest is read when the window, j/k or find reaches it.
  const outline = await firstRead<SessionOutline>(route);
  const view = renderSession(outlineSource(outline), { links: true, text: renderMarkdown }, outline.page.from);
  view.element.querySelector('.session-head')?.after(findBar(view));
  fill(root, view.element);
  document.title = `${outline.title ?? outline.id} · strata`;
  await showMessage(root, Number(route.params.get('m')), wordsOf(route.params));
}
