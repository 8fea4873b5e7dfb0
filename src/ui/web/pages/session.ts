// Owns the Session page: one session drawn by render-session.ts, at message `?m=N` when given, with the
// words of `?hl=` marked there.
import type { SessionDetail } from '../../../core/browse/session-detail.js';
import { getJson } from '../api.js';
import { fill, h } from '../dom.js';
import { renderMarkdown } from '../markdown.js';
import { renderSession } from '../render-session.js';
import type { Route } from '../route.js';
import { showMessage, wordsOf } from '../target.js';

export async function sessionPage(root: HTMLElement, route: Route): Promise<void> {
  fill(root, h('p', { class: 'muted' }, 'loading…'));
  const detail = await getJson<SessionDetail>('session', { id: route.arg });
  fill(root, renderSession(detail, { links: true, text: renderMarkdown }));
  document.title = `${detail.title ?? detail.id} · strata`;
  showMessage(root, Number(route.params.get('m')), wordsOf(route.params));
}
