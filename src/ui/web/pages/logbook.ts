// Owns the Logbook page's place: the project timeline (decisions, facts, bugs) is built elsewhere; until its
// API exists the nav entry stays hidden and this route says so.
import { fill, h } from '../dom.js';

export async function logbookPage(root: HTMLElement): Promise<void> {
  fill(root, h('h1', {}, 'Logbook'), h('p', { class: 'muted' }, 'The logbook is not available in this version.'));
}
