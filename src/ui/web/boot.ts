// Owns starting the Session page's first read while the app's script is still loading: a page opened on
// `#/session/<id>?m=N` asks for its window at once, and the page takes that answer if the route is the same.
import { firstReadKey } from './first-read.js';
import { currentRoute } from './route.js';

const key = firstReadKey(currentRoute());
if (key)
  (window as { strataFirstRead?: unknown }).strataFirstRead = {
    key,
    answer: fetch(`/api/session-window?${key}`, { headers: { Accept: 'application/json' } }),
  };
