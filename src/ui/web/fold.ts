// Owns the folds of a session (thinking, tool calls, noise): <details> whose body is built when first opened,
// so a 5 MB session keeps a small DOM, and which a link to a message can open and build at once.
import { h } from './dom.js';

const builders = new WeakMap<HTMLDetailsElement, () => void>();

export function fold(cls: string, summary: (Node | string | null)[], body: () => Node[], open = false): HTMLElement {
  const details = h('details', { class: cls }, h('summary', {}, summary));
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    details.append(...body());
  };
  builders.set(details, build);
  details.addEventListener('toggle', build);
  if (open) {
    details.open = true;
    build();
  }
  return details;
}

/** Builds a fold's body now (synchronously, unlike the toggle event) and opens it. */
export function unfold(details: HTMLDetailsElement): void {
  builders.get(details)?.();
  details.open = true;
}

/** Builds every fold under `root` without opening it, so its text can be searched. */
export function buildFolds(root: Element): void {
  for (const d of root.querySelectorAll('details')) builders.get(d)?.();
}
