// Owns the paged session endpoints of `strata ui`: `session-window` (the header and the messages around `m`),
// `messages` (a range by index) and `find` (the messages holding words). The session read last is kept, with
// its pairs and find texts, until the store changes (SQLite's data_version) or, for a remote one, a while.
import type { SessionDetail } from '../../core/browse/session-detail.js';
import {
  findIn,
  findTexts,
  outlineOf,
  PAGE_MESSAGES,
  type Pairs,
  pageOf,
  pairResults,
} from '../../core/browse/session-pages.js';
import { usageError } from '../../shared/errors.js';

interface Entry {
  key: string;
  detail: SessionDetail;
  pairs: Pairs;
  texts?: Map<number, string>;
  at: number;
}

export const SESSION_WINDOW_ENDPOINTS = ['session-window', 'messages', 'find'];

function nonNegative(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw usageError(`${name} must be a non-negative integer`);
  return n;
}

/** The last session read, kept while its key (the id and the store's state) stays and it is not too old. */
export class SessionKeeper {
  private kept: Entry | undefined;
  constructor(private readonly maxAge = Infinity) {}

  /** The kept entry for `key`, if still good. */
  get(key: string): Entry | undefined {
    const e = this.kept;
    return e && e.key === key && Date.now() - e.at <= this.maxAge ? e : undefined;
  }

  keep(key: string, detail: SessionDetail): Entry {
    this.kept = { key, detail, pairs: pairResults(detail.messages), at: Date.now() };
    return this.kept;
  }
}

/** The id a paged endpoint asks for (a 400 without one). */
export function requiredId(params: URLSearchParams): string {
  const id = params.get('id');
  if (!id) throw usageError('id is required');
  return id;
}

/** The answer of endpoint `name` (one of SESSION_WINDOW_ENDPOINTS) over a kept session. */
export function windowAnswer(name: string, e: Entry, params: URLSearchParams): unknown {
  if (name === 'session-window') return outlineOf(e.detail, e.pairs, nonNegative(params, 'm'));
  if (name === 'messages') {
    const from = nonNegative(params, 'from') ?? 0;
    return pageOf(e.detail, e.pairs, from, nonNegative(params, 'to') ?? from + PAGE_MESSAGES);
  }
  const q = params.get('q')?.trim();
  if (!q) throw usageError('q is required');
  e.texts ??= findTexts(e.detail);
  return { query: q, messages: findIn(e.texts, q) };
}
