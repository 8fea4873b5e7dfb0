// Owns the hash routes (`#/page/arg?k=v`): the app is one page, so a reload or a shared link reopens the
// same view, and the server serves a single HTML file.

export interface Route {
  page: string;
  arg: string;
  params: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = hash.split('?', 2);
  const [page = 'sessions', ...rest] = path.split('/');
  return { page: page || 'sessions', arg: decodeURIComponent(rest.join('/')), params: new URLSearchParams(query) };
}

/** Sets the route's query parameters (empty values dropped) without adding a history entry per keystroke. */
export function setParams(page: string, params: Record<string, string | number | undefined>, replace = true): void {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const hash = `#/${page}${query.size ? '?' + query.toString() : ''}`;
  if (replace) history.replaceState(null, '', hash);
  else location.hash = hash;
}
