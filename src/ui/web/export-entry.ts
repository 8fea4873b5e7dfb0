// Owns the script of an exported session file: it reads the session JSON embedded in the page and draws it
// with the same renderer as the Session page, without links to pages the file does not have.
import type { SessionDetail } from '../../core/browse/session-detail.js';
import { renderSession } from './render-session.js';
import './app.css';

const data = document.getElementById('strata-session');
if (data?.textContent) {
  const session = JSON.parse(data.textContent) as SessionDetail;
  const main = document.createElement('main');
  main.append(renderSession(session, { links: false }));
  document.body.append(main);
}
