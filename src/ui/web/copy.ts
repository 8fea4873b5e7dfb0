// Owns the copy buttons (a session id, a `strata read <id> N` command): one listener for the whole page.
import { h } from './dom.js';

export function copyButton(text: string, label: string): HTMLElement {
  return h('button', { type: 'button', class: 'copy', 'data-copy': text, title: `${label}: ${text}` }, 'copy');
}

document.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button.copy');
  if (!button?.dataset.copy) return;
  void navigator.clipboard.writeText(button.dataset.copy).then(
    () => {
      button.textContent = 'copied';
      setTimeout(() => {
        button.textContent = 'copy';
      }, 1500);
    },
    () => {
      button.textContent = 'copy failed';
    },
  );
});
