// Owns the front end's shell: the navigation bar and the hash router that draws one page at a time.
import { fill, h } from './dom.js';
import { currentRoute, type Route } from './route.js';
import { sessionsPage } from './pages/sessions.js';
import { sessionPage } from './pages/session.js';
import { searchPage } from './pages/search.js';
import { filesPage } from './pages/files.js';
import { activityPage } from './pages/activity.js';
import { logbookPage } from './pages/logbook.js';
import 'uplot/dist/uPlot.min.css';
import './app.css';

type Page = (root: HTMLElement, route: Route) => Promise<void>;

const PAGES: Record<string, Page> = {
  sessions: sessionsPage,
  session: sessionPage,
  search: searchPage,
  files: filesPage,
  activity: activityPage,
  logbook: logbookPage,
};

/** Nav entries; a `hidden` one has a route but no link (a page not ready to be offered). */
const NAV: { page: string; label: string; hidden?: boolean }[] = [
  { page: 'sessions', label: 'Sessions' },
  { page: 'search', label: 'Search' },
  { page: 'files', label: 'Files' },
  { page: 'activity', label: 'Activity' },
  { page: 'logbook', label: 'Logbook' },
];

const nav = h(
  'nav',
  { class: 'top' },
  h('a', { class: 'brand', href: '#/sessions' }, 'strata'),
  NAV.map((n) => h('a', { href: `#/${n.page}`, 'data-page': n.page, hidden: n.hidden ?? false }, n.label)),
);
const main = h('main', {});
document.body.append(nav, main);

let drawn = '';
async function route(): Promise<void> {
  // In-page anchors (`#m-12`) scroll to a message; they are not routes.
  if (/^#m-\d+$/.test(location.hash)) return;
  const r = currentRoute();
  const key = `${r.page}/${r.arg}`;
  // Pages rewrite their own query string as filters change: only a new page or argument redraws.
  if (key === drawn && r.page !== 'session') return;
  if (key === drawn && r.page === 'session') {
    const target = document.getElementById(`m-${Number(r.params.get('m'))}`);
    for (const el of document.querySelectorAll('.msg.target')) el.classList.remove('target');
    target?.classList.add('target');
    target?.scrollIntoView({ block: 'start' });
    return;
  }
  drawn = key;
  for (const a of nav.querySelectorAll<HTMLAnchorElement>('a[data-page]'))
    a.classList.toggle('active', a.dataset.page === (r.page === 'session' ? 'sessions' : r.page));
  document.title = 'strata';
  const page = PAGES[r.page] ?? sessionsPage;
  try {
    await page(main, r);
  } catch (error) {
    fill(
      main,
      h('h1', {}, 'Something went wrong'),
      h('p', { class: 'error-text' }, error instanceof Error ? error.message : String(error)),
    );
  }
}

window.addEventListener('hashchange', () => void route());
void route();
