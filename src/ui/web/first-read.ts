// Owns the Session page's first read (its header and window), which boot.ts may have started before the app
// loaded: both name it by the same query, so a page opened elsewhere, or since moved on, reads it anew.
import { getJson, jsonOf } from './api.js';
import type { Route } from './route.js';

/** The query of a session route's first read (`id`, `m`), or undefined for another page. */
export function firstReadKey(route: Route): string | undefined {
  if (route.page !== 'session' || !route.arg) return undefined;
  const query = new URLSearchParams({ id: route.arg });
  const m = route.params.get('m');
  if (m) query.set('m', m);
  return query.toString();
}

interface Started {
  key: string;
  answer: Promise<Response>;
}

/** The answer of `/api/session-window` for the route: the one boot.ts started when it is the same, once. */
export function firstRead<T>(route: Route): Promise<T> {
  const key = firstReadKey(route) ?? '';
  const holder = window as { strataFirstRead?: Started };
  const started = holder.strataFirstRead;
  holder.strataFirstRead = undefined;
  if (started && started.key === key) return started.answer.then((r) => jsonOf<T>(r));
  return getJson<T>('session-window', Object.fromEntries(new URLSearchParams(key)));
}
