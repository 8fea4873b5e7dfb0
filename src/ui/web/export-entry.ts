// Owns the script of an exported session file: it reads the session JSON embedded in the page and draws it
// with the same renderer as the Session page, without links to pages the file does not have.
import type { SessionDetail } from '../../core/browse/session-detail.js';
import { renderSession } from './session-window.js';
import { detailSource } from './session-source.js';
import './app.css';

const data = document.getElementById('strata-session');
if (data?.textContent) {
  const session = JSON.parse(data.textContent) as SessionDetail;
  const main = document.createElement('main');
  const view = renderSession(detailSource(session), { links: false });
  main.append(view.element);
  document.body.append(main);
  // Messages are drawn a window at a time: an anchor to one not drawn draws it first.
  const land = () => {
    const n = /^#m-(\d+)$/.exec(location.hash)?.[1];
    if (n) void view.reveal(Number(n)).then((el) => el?.scrollIntoView({ block: 'start' }));
  };
  window.addEventListener('hashchange', land);
  land();
}
