// Owns the keyboard shortcuts: `/` search, `j`/`k` next and previous message on a session, `?` this help,
// Escape closes it. Keys typed into a field are left to the field.
import { h, sessionHref } from './dom.js';
import { currentRoute } from './route.js';
import { activeView } from './session-window.js';

const HELP: [string, string][] = [
  ['/', 'search (the page’s filter, or the Search page)'],
  ['j / k', 'next / previous message in a session'],
  ['Ctrl+F', 'find in a session, folded and not yet drawn text too (Enter: next, Shift+Enter: previous)'],
  ['?', 'show this help'],
  ['Esc', 'close this help'],
];

let dialog: HTMLDialogElement | undefined;

function help(): void {
  dialog ??= h(
    'dialog',
    { class: 'help', 'aria-label': 'keyboard shortcuts' },
    h('h2', {}, 'Keyboard shortcuts'),
    h(
      'dl',
      {},
      HELP.flatMap(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)]),
    ),
    h('form', { method: 'dialog' }, h('button', {}, 'Close')),
  );
  if (!dialog.isConnected) document.body.append(dialog);
  if (!dialog.open) dialog.showModal();
}

/** The message after (or before) the one in the URL, drawn or not (the window draws it). */
function step(by: 1 | -1): void {
  const route = currentRoute();
  if (route.page !== 'session' || !activeView?.element.isConnected) return;
  const next = activeView.step(Number(route.params.get('m')) || 0, by);
  if (next) location.hash = sessionHref(route.arg, next);
}

export function installKeys(): void {
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const field = (e.target as HTMLElement).closest('input, textarea, select, [contenteditable]');
    if (field) return;
    if (e.key === '/') {
      e.preventDefault();
      const box = document.querySelector<HTMLInputElement>('main input[type=search]:not([name=find])');
      if (box) box.focus();
      else location.hash = '#/search';
    } else if (e.key === 'j' || e.key === 'k') step(e.key === 'j' ? 1 : -1);
    else if (e.key === '?') help();
  });
}
