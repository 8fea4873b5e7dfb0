// Owns the front end's shell: the navigation bar and the hash router that draws one page at a time.
import { fill, h, sessionHref } from './dom.js';
import { showMessage, wordsOf } from './target.js';
import { installKeys } from './keys.js';
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

let drawnSession = '';
let generation = 0;
async function route(): Promise<void> {
  // An in-page anchor (`#m-12`, as in an exported file) becomes the drawn session's permalink.
  const anchor = /^#m-(\d+)$/.exec(location.hash);
  if (anchor && drawnSession) history.replaceState(null, '', sessionHref(drawnSession, Number(anchor[1])));
  const r = currentRoute();
  // Only the message changed: land on it without redrawing the session.
  if (r.page === 'session' && r.arg === drawnSession && main.querySelector('.session')) {
    await showMessage(main, Number(r.params.get('m')), wordsOf(r.params));
    return;
  }
  drawnSession = r.page === 'session' ? r.arg : '';
  const mine = ++generation;
  const active = r.page === 'session' ? 'sessions' : r.page;
  for (const a of nav.querySelectorAll<HTMLAnchorElement>('a[data-page]'))
    a.classList.toggle('active', a.dataset.page === active);
  const label = NAV.find((n) => n.page === r.page)?.label;
  document.title = label ? `${label} · strata` : 'strata';
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
  if (mine === generation) focusPage();
}

/** After a route change, focus goes to the page's first field to type in (Search) or to its heading. */
function focusPage(): void {
  const field = main.querySelector<HTMLElement>('[data-autofocus]');
  const heading = main.querySelector<HTMLElement>('h1');
  if (heading) heading.tabIndex = -1;
  (field ?? heading)?.focus({ preventScroll: true });
}

installKeys();
window.addEventListener('hashchange', () => void route());
void route();
