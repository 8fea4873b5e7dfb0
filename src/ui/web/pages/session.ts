// Owns the Session page: one session drawn a window at a time by session-window.ts, at message `?m=N` when
// given, with the words of `?hl=` marked there, and a find bar that reaches every message and fold.
import type { SessionDetail } from '../../../core/browse/session-detail.js';
import { getJson } from '../api.js';
import { fill, h } from '../dom.js';
import { findBar } from '../find.js';
import { renderMarkdown } from '../markdown.js';
import type { Route } from '../route.js';
import { renderSession } from '../session-window.js';
import { showMessage, wordsOf } from '../target.js';

export async function sessionPage(root: HTMLElement, route: Route): Promise<void> {
  fill(root, h('p', { class: 'muted' }, 'loading…'));
  const detail = await getJson<SessionDetail>('session', { id: route.arg });
  const view = renderSession(detail, { links: true, text: renderMarkdown });
  view.element.querySelector('.session-head')?.after(findBar(view));
  fill(root, view.element);
  document.title = `${detail.title ?? detail.id} · strata`;
  showMessage(root, Number(route.params.get('m')), wordsOf(route.params));
}
