// Owns the messages of the session drawn: on the Session page read a window at a time from the API (the first
// with the header, the rest when the window reaches them), in an exported file all there from the start.
import type { DetailMessage, SessionDetail } from '../../core/browse/session-detail.js';
import {
  findIn,
  findTexts,
  type PairedResult,
  pairResults,
  type SessionHeader,
  type SessionOutline,
  type SessionPage,
} from '../../core/browse/session-pages.js';
import { getJson } from './api.js';

export interface SessionSource {
  header: SessionHeader;
  total: number;
  /** Message → the message of the call of its first paired result. */
  callOf: Map<number, number>;
  /** Messages with nothing of their own to show. */
  hidden: Set<number>;
  /** Message `i` (0-based), once read. */
  message(i: number): DetailMessage | undefined;
  /** The results drawn in their call's fold, by the call's id, of the calls read so far. */
  results: Map<string, PairedResult>;
  /** Reads messages `from`..`to`-1 that are not read yet. */
  load(from: number, to: number): Promise<void>;
  /** The messages (as shown) whose text holds `query`. */
  find(query: string): Promise<number[]>;
}

function addPage(messages: (DetailMessage | undefined)[], results: Map<string, PairedResult>, page: SessionPage) {
  page.messages.forEach((m, k) => {
    messages[page.from + k] = m;
    for (const b of m.blocks)
      if (b.pairedWith !== undefined && b.toolCallId && !results.has(b.toolCallId))
        results.set(b.toolCallId, { ...b, message: m.n });
  });
  for (const r of page.results) if (r.toolCallId) results.set(r.toolCallId, r);
}

/** The Session page's: the first answer of the API, read on as needed. */
export function outlineSource(outline: SessionOutline): SessionSource {
  const { total, hidden, callOf, page, ...header } = outline;
  const messages: (DetailMessage | undefined)[] = new Array(total);
  const results = new Map<string, PairedResult>();
  addPage(messages, results, page);
  return {
    header,
    total,
    callOf: new Map(callOf),
    hidden: new Set(hidden),
    message: (i) => messages[i],
    results,
    async load(from, to) {
      let first = Math.max(0, from);
      let last = Math.min(total, to) - 1;
      while (first <= last && messages[first]) first++;
      while (last >= first && messages[last]) last--;
      if (first > last) return;
      addPage(messages, results, await getJson<SessionPage>('messages', { id: header.id, from: first, to: last + 1 }));
    },
    async find(query) {
      return (await getJson<{ messages: number[] }>('find', { id: header.id, q: query })).messages;
    },
  };
}

/** An exported file's: the whole session, embedded. */
export function detailSource(detail: SessionDetail): SessionSource {
  const { messages, ...header } = detail;
  const pairs = pairResults(messages);
  let texts: Map<number, string> | undefined;
  return {
    header,
    total: messages.length,
    callOf: pairs.callOf,
    hidden: pairs.hidden,
    message: (i) => messages[i],
    results: pairs.results,
    load: async () => {},
    async find(query) {
      texts ??= findTexts(detail);
      return findIn(texts, query);
    },
  };
}
