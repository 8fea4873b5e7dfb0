// Owns the Session page: one session drawn by render-session.ts, scrolled to `?m=N` when given.
import type { SessionDetail } from '../../../core/browse/session-detail.js';
import { getJson } from '../api.js';
import { fill, h } from '../dom.js';
import { renderSession } from '../render-session.js';
import type { Route } from '../route.js';

export async function sessionPage(root: HTMLElement, route: Route): Promise<void> {
  fill(root, h('p', { class: 'muted' }, 'loading…'));
  const detail = await getJson<SessionDetail>('session', { id: route.arg });
  fill(root, renderSession(detail, { links: true }));
  document.title = `${detail.title ?? detail.id} · strata`;
  const target = Number(route.params.get('m'));
  if (target) {
    const el = document.getElementById(`m-${target}`);
    if (el) {
      el.classList.add('target');
      el.scrollIntoView({ block: 'start' });
    }
  }
}
