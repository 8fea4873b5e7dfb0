// Owns detection of the parent prefix a forked or subagent rollout replays at its start. The parser marks
// those items (ParsedMessage.replayOf); the ingest drops them only if the parent session holds them.
//
// The rule (only for a rollout whose own session_meta, line 1, names a parent via forked_from_id or
// source.subagent.thread_spawn.parent_thread_id):
//   - replay starts at the first copied ancestor session_meta (a session_meta whose id is not the rollout's
//     own) or at the first record stamped earlier than the own session_meta (builds that keep the original
//     timestamps);
//   - it continues while records are stamped earlier than the own session_meta, or within 1 s of the previous
//     replayed record (newer builds re-stamp the whole copy in one burst at the fork instant);
//   - the first record outside that window ends the replay for good; everything after it is the fork's own.
// The copy is written when the fork is created, so it is always inside the call that holds line 1; appended
// chunks never contain replay.
import type { ParsedSession } from '../../shared/model.js';
import type { CodexLine, Json } from './schema.js';
import { str } from './schema.js';

const BURST_MS = 1000;

function timeOf(record: CodexLine): number | undefined {
  if (record.kind !== 'envelope' || record.timestamp === undefined) return undefined;
  const t = Date.parse(record.timestamp);
  return Number.isNaN(t) ? undefined : t;
}

export function detectForkReplay(
  parsed: Array<{ line: number; record: CodexLine }>,
  session: ParsedSession,
  ownMeta: Json | undefined,
): Set<number> {
  const replay = new Set<number>();
  if (!ownMeta || !session.parentKey) return replay;
  const ownTs = Date.parse(str(ownMeta.timestamp) ?? '');
  let active = false;
  let lastTs: number | undefined;
  for (const { line, record } of parsed) {
    if (line === 1) continue;
    const ts = timeOf(record);
    const ancestorMeta =
      record.kind === 'envelope' && record.type === 'session_meta' && str(record.payload.id) !== session.key;
    const older = ts !== undefined && !Number.isNaN(ownTs) && ts < ownTs;
    if (!active) {
      if (!ancestorMeta && !older) continue;
      active = true;
    } else {
      const inBurst = ancestorMeta || older || ts === undefined || (lastTs !== undefined && ts - lastTs <= BURST_MS);
      if (!inBurst) break;
    }
    replay.add(line);
    if (ts !== undefined) lastTs = Math.max(lastTs ?? ts, ts);
  }
  return replay;
}
