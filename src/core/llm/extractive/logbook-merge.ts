// Owns telling logbook candidates apart: the terms an event is compared by, when two are alike, and one
// event per failure (a bug restated or fixed soon after another joins it).
import type { LogbookEvent } from '../task-schemas.js';
import { FIX_DONE, FIXED_LEAD } from './logbook-cues.js';
import { extraTerms } from './segments.js';
import { termsOf } from './text.js';

export interface Candidate {
  event: LogbookEvent;
  priority: number;
  order: number;
  terms: Set<string>;
  /** A bug read from a thread of the user's turns: one failure by construction, never folded into another. */
  thread?: boolean;
}

const MERGE_WINDOW = 20;

/** What a bug says once the command that hit it is set aside: two commands failing alike are one bug. */
export function bugText(content: string): string {
  return content.replace(/^\x60[^\x60]*\x60 failed: /, '');
}

export function termSet(text: string): Set<string> {
  return new Set([...termsOf(text), ...extraTerms(text)]);
}

/**
 * One event per failure: a bug stated within MERGE_WINDOW messages after another one is the same
 * investigation; it becomes the first one's resolution when that has none, and is dropped otherwise.
 * A user message reporting an error between the two (`reports`, message indexes) opens a new one.
 */
export function mergeBugs(candidates: readonly Candidate[], reports: readonly number[] = []): Candidate[] {
  const out: Candidate[] = [];
  let open: Candidate | undefined;
  for (const c of [...candidates].sort((a, b) => a.order - b.order)) {
    if (c.event.type !== 'bug') {
      out.push(c);
      continue;
    }
    const message = Math.floor(c.order / 10_000);
    const from = open ? Math.floor(open.order / 10_000) : 0;
    const near = open && message - from <= MERGE_WINDOW && !reports.some((r) => r > from && r <= message);
    if (open && near && !c.thread) {
      const reportsFix = FIXED_LEAD.test(open.event.content);
      if (
        !open.event.resolution &&
        !reportsFix &&
        FIX_DONE.test(c.event.content) &&
        c.event.content !== open.event.content
      )
        open.event.resolution = c.event.content;
      open.priority = Math.max(open.priority, c.priority);
      continue;
    }
    open = c;
    out.push(c);
  }
  return out;
}

export const SAME_BUG = 0.4;

export function similar(a: Set<string>, b: Set<string>, threshold = 0.6): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared) >= threshold;
}
