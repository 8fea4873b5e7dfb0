// Owns turning a reply's events into timeline events: known types only, texts collapsed, clipped and
// redacted, content that is only an id or a path refused, and each event cited to a message of the
// chunk whose time it takes (a timestamp not in the chunk is corrected, never invented).
import { redactEventText } from './redact-events.js';
import {
  CONTENT_MAX,
  EVENT_TYPES,
  RATIONALE_MAX,
  type ConversationMessage,
  type EventType,
  type TimelineEvent,
} from './types.js';

/** Most events one chunk may add; a reply with more keeps its first ones. */
const MAX_EVENTS_PER_CHUNK = 40;

export interface NormalizeStats {
  kept: number;
  /** Events refused, by reason. */
  dropped: Record<string, number>;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

function clip(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, max - 1).trimEnd() + '…';
}

function isoOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Content that names nothing but an id, a hash or a path is no event. */
function isBareReference(content: string): boolean {
  const t = content.replace(/[`'"*]/g, '').trim();
  if (!/\s/.test(t)) return true;
  return /^(?:[\w.-]*\/[\w./-]*|[0-9a-f-]{8,}|[\w-]+\.[a-z]{1,5})(?:\s*[:,]\s*(?:[\w./-]+))?$/i.test(t);
}

function record(stats: NormalizeStats, reason: string): void {
  stats.dropped[reason] = (stats.dropped[reason] ?? 0) + 1;
}

/** Finds the cited message: its chunk id as given, as a number, or `[N]`. */
function citedMessage(byId: Map<string, ConversationMessage>, source: unknown): ConversationMessage | undefined {
  if (!source || typeof source !== 'object') return undefined;
  const raw = (source as { message_id?: unknown }).message_id;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const id = String(raw)
    .trim()
    .replace(/^\[|\]$/g, '');
  return byId.get(id);
}

export function normalizeEvents(
  raw: unknown[],
  conversationId: string,
  messages: ConversationMessage[],
  stats: NormalizeStats,
  /** The conversation's time, for an export whose messages carry none (an old chat export). */
  fallbackTime?: string,
): TimelineEvent[] {
  const byId = new Map(messages.map((m) => [m.chunkId, m]));
  const timed = messages.filter((m) => isoOf(m.timestamp) !== undefined);
  const out: TimelineEvent[] = [];
  for (const item of raw) {
    if (out.length >= MAX_EVENTS_PER_CHUNK) {
      record(stats, 'over the per-chunk limit');
      continue;
    }
    if (!item || typeof item !== 'object') {
      record(stats, 'not an object');
      continue;
    }
    const e = item as Record<string, unknown>;
    const type = text(e.type).toLowerCase() as EventType;
    if (!EVENT_TYPES.includes(type)) {
      record(stats, 'unknown type');
      continue;
    }
    const content = redactEventText(text(e.content));
    if (content === '' || isBareReference(content)) {
      record(stats, content === '' ? 'empty content' : 'only an id or a path');
      continue;
    }
    // A citation names a message of this chunk or the event is dropped: never re-cited to another one.
    const cited = citedMessage(byId, e.source);
    if (!cited) {
      record(stats, 'cited message not in the chunk');
      continue;
    }
    const timestamp =
      isoOf(cited.timestamp) ?? isoOf(timed[timed.length - 1]?.timestamp) ?? (fallbackTime && isoOf(fallbackTime));
    if (!timestamp) {
      record(stats, 'no timestamp in the chunk');
      continue;
    }
    const event: TimelineEvent = {
      timestamp,
      type,
      content: clip(content, CONTENT_MAX),
      source: {
        conversation_id: conversationId,
        message_id: cited.chunkId,
        session: cited.session,
        message: cited.number,
        agent: cited.agent,
        role: cited.role,
      },
    };
    const rationale = redactEventText(text(e.rationale));
    if (rationale) event.rationale = clip(rationale, RATIONALE_MAX);
    if (Array.isArray(e.alternatives)) {
      const alternatives = e.alternatives
        .map((a) => clip(redactEventText(text(a)), 200))
        .filter((a) => a !== '')
        .slice(0, 8);
      if (alternatives.length > 0) event.alternatives = alternatives;
    }
    const code = redactEventText(
      text(typeof e.code === 'string' ? e.code.split('\n').find((l) => l.trim() !== '') : ''),
    );
    if (code) event.code = clip(code, 200);
    const resolution = redactEventText(text(e.resolution));
    if (resolution && type === 'bug') event.resolution = clip(resolution, 300);
    out.push(event);
    stats.kept++;
  }
  return out;
}
