// Owns what `read` knows of every tool call of a session, whatever range is read: where its call and its
// result are (so a range never splits the pair), whether the call failed (so the "(error)" mark does not
// depend on the range), and the subagent session a Task/Agent call started.
import type { Database } from 'better-sqlite3';

export interface CallLink {
  /** 0-based positions of the messages holding the call and its result (undefined when absent). */
  call?: number;
  result?: number;
  isError: boolean;
  /** The subagent's agent id, from its result's metadata (Claude Code Task/Agent). */
  agentId?: string;
}

/** A call and its result further apart than this are not pulled into a range together. */
export const MAX_PAIR_DISTANCE = 10;

export function callLinks(db: Database, sessionId: number, positionOf: Map<number, number>): Map<string, CallLink> {
  const rows = db
    .prepare(`SELECT b.message_id, b.kind, b.tool_call_id, b.is_error,
      CASE WHEN b.kind = 'tool_result' AND instr(b.meta, '"agentId"') > 0 THEN b.meta END AS meta
    FROM messages m JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? AND b.tool_call_id IS NOT NULL`)
    .raw(true)
    .all(sessionId) as [number, string, string, number, string | null][];
  const links = new Map<string, CallLink>();
  for (const [messageId, kind, callId, isError, meta] of rows) {
    const link = links.get(callId) ?? { isError: false };
    const at = positionOf.get(messageId);
    if (kind === 'tool_call') link.call = at;
    else if (kind === 'tool_result') {
      link.result = at;
      if (isError) link.isError = true;
      if (meta) {
        try {
          const agentId = (JSON.parse(meta) as { agentId?: unknown }).agentId;
          if (typeof agentId === 'string' && /^[\w-]+$/.test(agentId)) link.agentId = agentId;
        } catch {
          // metadata that is not JSON names no subagent
        }
      }
    }
    links.set(callId, link);
  }
  return links;
}

/**
 * Widens a 0-based [from, to] range so that no call is shown without its nearby result, nor a result without its call.
 */
export function widenToPairs(from: number, to: number, links: Map<string, CallLink>): { from: number; to: number } {
  let lo = from;
  let hi = to;
  for (const { call, result } of links.values()) {
    if (call === undefined || result === undefined || Math.abs(result - call) > MAX_PAIR_DISTANCE) continue;
    const first = Math.min(call, result);
    const last = Math.max(call, result);
    if (last >= from && first <= to) {
      lo = Math.min(lo, first);
      hi = Math.max(hi, last);
    }
  }
  return { from: lo, to: hi };
}
