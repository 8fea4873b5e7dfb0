// Owns the Search page: the engine of `strata search` (ranked full text, or a regular expression), hits
// grouped by session with the query's words highlighted, each opening the session at its message.
import type { SearchHit, SearchResult, SearchSession } from '../../../core/retrieval/search.js';
import { AGENTS } from '../../../shared/model.js';
import { getJson } from '../api.js';
import { fill, formatTime, h, highlighted, sessionHref } from '../dom.js';
import { setParams, type Route } from '../route.js';
import { clip, readableHit } from '../snippet.js';

/** The words of a query worth highlighting (no operators, no excluded words). */
function terms(query: string, regex: boolean): string[] {
  if (regex) return [];
  return query
    .replace(/"/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'OR' && w !== 'AND' && w !== 'NOT' && !w.startsWith('-'))
    .map((w) => w.replace(/\*$/, ''));
}

/** A hit's permalink: its message, with the query's words to mark there. */
function hitHref(id: string, message: number, words: string[]): string {
  const href = sessionHref(id, message);
  return words.length ? `${href}${href.includes('?') ? '&' : '?'}hl=${encodeURIComponent(words.join(' '))}` : href;
}

function hitList(id: string, hits: SearchHit[], words: string[]): HTMLElement {
  return h(
    'ul',
    { class: 'hits' },
    hits.map((hit) => {
      const { label, text } = readableHit(hit.field, hit.snippet);
      return h(
        'li',
        {},
        h(
          'a',
          { href: hitHref(id, hit.message, words), class: 'hit' },
          h('span', { class: 'where' }, `#${hit.message} ${label}`),
          h('span', { class: 'snippet' }, highlighted(text, words)),
        ),
      );
    }),
  );
}

/** One session's hits; when it has more than shown, a button fetches all of them. */
function hitSession(s: SearchSession, words: string[], more: (id: string, n: number) => Promise<SearchHit[]>) {
  let list = hitList(s.id, s.hits, words);
  const button =
    s.hitCount > s.hits.length
      ? h('button', { type: 'button', class: 'more-hits' }, `show all ${s.hitCount} hits`)
      : null;
  button?.addEventListener('click', async () => {
    button.disabled = true;
    const next = hitList(s.id, await more(s.id, s.hitCount), words);
    list.replaceWith(next);
    list = next;
    button.remove();
  });
  return h(
    'section',
    { class: 'hit-session', 'data-id': s.id },
    h('h2', {}, h('a', { href: sessionHref(s.id), title: s.title ?? '' }, s.title ? clip(s.title, 120) : s.shortId)),
    h(
      'div',
      { class: 'muted' },
      `${s.agent} · ${s.project ?? ''} · ${formatTime(s.startedAt)} · ` +
        `${s.hitCount} hit${s.hitCount === 1 ? '' : 's'}` +
        (s.hitCount > s.hits.length ? `, ${s.hits.length} shown` : ''),
    ),
    list,
    button,
  );
}

export async function searchPage(root: HTMLElement, route: Route): Promise<void> {
  const input = h('input', {
    type: 'search',
    name: 'q',
    placeholder: 'words, "phrases", OR, -excluded',
    value: route.params.get('q') ?? '',
    'data-autofocus': true,
    'aria-label': 'query',
  });
  const regex = h('input', { type: 'checkbox', name: 'regex', checked: route.params.get('regex') === '1' });
  const agent = h(
    'select',
    { name: 'agent', 'aria-label': 'agent' },
    ['', ...AGENTS].map((a) =>
      h('option', { value: a, selected: a === (route.params.get('agent') ?? '') }, a || 'all agents'),
    ),
  );
  const since = h(
    'select',
    { name: 'since', 'aria-label': 'time' },
    [
      ['', 'any time'],
      ['7d', 'last 7 days'],
      ['30d', 'last 30 days'],
      ['365d', 'last year'],
    ].map(([v, l]) => h('option', { value: v!, selected: v === (route.params.get('since') ?? '') }, l!)),
  );
  const results = h('div', { class: 'results' });
  const query = () => ({
    q: input.value.trim(),
    regex: regex.checked ? '1' : undefined,
    agent: agent.value || undefined,
    since: since.value || undefined,
  });
  const more = async (id: string, n: number) =>
    (await getJson<SearchResult>('search', { ...query(), session: id, perSession: Math.min(n, 1000) })).sessions[0]
      ?.hits ?? [];
  const run = async () => {
    const q = input.value.trim();
    document.title = q ? `${q} · Search · strata` : 'Search · strata';
    const filters = { agent: agent.value || undefined, since: since.value || undefined };
    setParams('search', { q, regex: regex.checked ? '1' : undefined, ...filters });
    if (!q) return fill(results);
    fill(results, h('p', { class: 'muted' }, 'searching…'));
    try {
      const r = await getJson<SearchResult>('search', { q, regex: regex.checked ? '1' : undefined, ...filters });
      const words = terms(q, regex.checked);
      fill(
        results,
        h(
          'p',
          { class: 'muted' },
          `${r.sessions.length} session${r.sessions.length === 1 ? '' : 's'}`,
          r.mode === 'regex' ? ' matching the expression' : r.mode === 'substring' ? ' containing the text' : '',
          r.window ? ` · ranked among the newest ${r.window.ranked} matches` : '',
          r.corrected ? ` · searched for: ${r.corrected.map((c) => `${c.to} (for ${c.from})`).join(', ')}` : '',
        ),
        r.sessions.map((s) => hitSession(s, words, (id, n) => more(id, n))),
      );
    } catch (error) {
      fill(results, h('p', { class: 'error-text' }, String(error instanceof Error ? error.message : error)));
    }
  };
  const form = h(
    'form',
    {
      class: 'filters',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void run();
      },
    },
    input,
    agent,
    since,
    h('label', {}, regex, ' regular expression'),
    h('button', { type: 'submit' }, 'Search'),
  );
  for (const select of [agent, since]) select.addEventListener('change', () => void run());
  fill(root, h('h1', {}, 'Search'), form, results);
  if (input.value) await run();
}
