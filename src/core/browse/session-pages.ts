// Owns a session sent a window at a time (the Session page): its header with the first window around the
// message asked for, further windows by index, and find over every message and fold. Results drawn in their
// call's fold are paired once here, so a window never needs the messages outside it to be drawn right.
import type { DetailBlock, DetailMessage, SessionDetail } from './session-detail.js';

/** Messages in one window. */
export const PAGE_MESSAGES = 100;
/** Messages sent before the one asked for, so that it is not the first on the page. */
export const PAGE_LEAD = 10;
/** At most this many messages in one `messages` answer. */
export const MAX_PAGE_MESSAGES = 500;

export type SessionHeader = Omit<SessionDetail, 'messages'>;

/** A tool result drawn with its call, and the number of the message it belongs to. */
export type PairedResult = DetailBlock & { message: number };

/** Messages `from`..`to`-1 (0-based), and the results of their calls that sit in messages outside them. */
export interface SessionPage {
  from: number;
  to: number;
  messages: DetailMessage[];
  results: PairedResult[];
}

/** The session's header and message count, which messages show elsewhere, and the first window. */
export interface SessionOutline extends SessionHeader {
  total: number;
  /** Messages that have nothing of their own to show: each result in them is drawn in its call's fold. */
  hidden: number[];
  /** [message, the message of the call of its first paired result], for messages holding such results. */
  callOf: [number, number][];
  page: SessionPage;
}

export interface Pairs {
  /** Each result drawn with its call, by the call's id. */
  results: Map<string, PairedResult>;
  callOf: Map<number, number>;
  hidden: Set<number>;
}

/** Pairs each call's first result with it (setting the result's `pairedWith`): one pass, nothing copied. */
export function pairResults(messages: DetailMessage[]): Pairs {
  const callAt = new Map<string, number>();
  for (const m of messages)
    for (const b of m.blocks) if (b.kind === 'tool_call' && b.toolCallId) callAt.set(b.toolCallId, m.n);
  const results = new Map<string, PairedResult>();
  const callOf = new Map<number, number>();
  const hidden = new Set<number>();
  for (const m of messages) {
    for (const b of m.blocks) {
      const at = b.kind === 'tool_result' && b.toolCallId ? callAt.get(b.toolCallId) : undefined;
      if (at === undefined || results.has(b.toolCallId!)) continue;
      b.pairedWith = at;
      results.set(b.toolCallId!, { ...b, message: m.n });
      if (!callOf.has(m.n)) callOf.set(m.n, at);
    }
    if (m.blocks.every((b) => b.pairedWith !== undefined)) hidden.add(m.n);
  }
  return { results, callOf, hidden };
}

/** The message whose element shows message `n` (a result is drawn in its call's message). */
export function shownIn(pairs: Pick<Pairs, 'callOf' | 'hidden'>, n: number): number {
  return pairs.hidden.has(n) ? (pairs.callOf.get(n) ?? n) : n;
}

/** A window never starts on a message whose results' calls sit before it: those are drawn with their calls. */
export function windowStart(callOf: Map<number, number>, index: number): number {
  let at = Math.max(0, index);
  while (at > 0 && (callOf.get(at + 1) ?? at + 1) < at + 1) at = callOf.get(at + 1)! - 1;
  return at;
}

export function pageOf(detail: SessionDetail, pairs: Pairs, from: number, to: number): SessionPage {
  const total = detail.messages.length;
  const start = Math.min(Math.max(0, from), total);
  const end = Math.min(Math.max(start, to), total, start + MAX_PAGE_MESSAGES);
  const messages = detail.messages.slice(start, end);
  const results: PairedResult[] = [];
  for (const m of messages)
    for (const b of m.blocks) {
      const r = b.kind === 'tool_call' && b.toolCallId ? pairs.results.get(b.toolCallId) : undefined;
      if (r && (r.message <= start || r.message > end)) results.push(r);
    }
  return { from: start, to: end, messages, results };
}

/** The header and the window around message `around` (1-based; none: from the first message). */
export function outlineOf(detail: SessionDetail, pairs: Pairs, around?: number): SessionOutline {
  const { messages, ...header } = detail;
  const total = messages.length;
  // A message among the first window's is shown with the session's start, as on a page read from the top.
  const at = around && around >= 1 && around <= total ? shownIn(pairs, around) - 1 : 0;
  const from = at < PAGE_MESSAGES ? 0 : windowStart(pairs.callOf, at - PAGE_LEAD);
  return {
    ...header,
    total,
    hidden: [...pairs.hidden],
    callOf: [...pairs.callOf],
    page: pageOf(detail, pairs, from, from + PAGE_MESSAGES),
  };
}

export function prettyInput(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input, null, 2);
  } catch {
    return String(input);
  }
}

/** Each message's searchable text, lowercased, under the message that shows it (a result under its call). */
export function findTexts(detail: SessionDetail): Map<number, string> {
  const texts = new Map<number, string[]>();
  const add = (n: number, text: string) => {
    const list = texts.get(n) ?? [];
    list.push(text.toLowerCase());
    texts.set(n, list);
  };
  for (const m of detail.messages)
    for (const b of m.blocks) {
      if (b.kind === 'tool_call') add(m.n, `${b.toolName ?? ''} ${b.summary ?? ''}\n${prettyInput(b.input ?? b.text)}`);
      else add(b.pairedWith ?? m.n, b.text);
    }
  return new Map([...texts].map(([n, list]) => [n, list.join('\n')]));
}

/** The messages (as shown: a result's under its call) whose text holds `query`, case-insensitive, in order. */
export function findIn(texts: Map<number, string>, query: string): number[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [];
  return [...texts]
    .filter(([, text]) => text.includes(wanted))
    .map(([n]) => n)
    .sort((a, b) => a - b);
}
