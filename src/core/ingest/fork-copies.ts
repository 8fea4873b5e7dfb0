// Owns dropping the items a fork or subagent rollout copies from its parent (marked replayOf by the
// adapter) — only when they are proven copies: the parent session is stored and holds every text of the
// item. Otherwise (the parent's rollout was never ingested, or the item is the fork's own first turn that
// the adapter's heuristic took for a copy) the item is kept as the session's own.
import type { StoredText } from '../../store/prepared-message.js';
import type { PreparedOutput } from './prepare.js';

const decoder = new TextDecoder();
const asString = (text: StoredText): string => (typeof text === 'string' ? text : decoder.decode(text));

/**
 * `output` without its proven copies, counted as skipped `fork_replay`. `parentTexts` gives the block texts
 * of a stored session (undefined when it is not stored). Sessions that lost copies lose their precounted
 * tool-call statistics, so those are recomputed from what was stored.
 */
export function withoutProvenCopies(
  output: PreparedOutput,
  parentTexts: (key: string) => Set<string> | undefined,
): PreparedOutput {
  if (!output.messages.some((m) => m.replayOf !== undefined)) return output;
  const parents = new Map<string, Set<string> | undefined>();
  const textsOf = (key: string) => {
    if (!parents.has(key)) parents.set(key, parentTexts(key));
    return parents.get(key);
  };
  const trimmed = new Set<string>();
  const messages = output.messages.filter((m) => {
    if (m.replayOf === undefined) return true;
    const texts = textsOf(m.replayOf);
    const copy = texts !== undefined && m.blocks.every((b) => b.text.length === 0 || texts.has(asString(b.text)));
    if (copy) trimmed.add(m.sessionKey);
    return !copy;
  });
  if (trimmed.size === 0) return output;
  const dropped = output.messages.length - messages.length;
  return {
    ...output,
    messages,
    skipped: { ...output.skipped, fork_replay: (output.skipped.fork_replay ?? 0) + dropped },
    callStats: output.callStats.filter(([key]) => !trimmed.has(key)),
  };
}
