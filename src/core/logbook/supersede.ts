// Owns superseded decisions: a later decision on the same subject replaces an earlier one of the same
// project ("metadata in Korean", later "front matter in English"), so the logbook keeps the last word.
// Same subject: most words shared (in one session), or a shared code term or file and a reversal cue.
import { contentTokens, similarity } from './dedupe.js';
import type { TimelineEvent } from './types.js';

const SAME_SUBJECT = 0.5;

/** Words that turn a decision back or round ("instead", "back to", "다시", "改回", "やっぱり", "mejor"). */
const REVERSAL = new RegExp(
  String.raw`\b(?:instead|back to|revert\w*|no longer|not anymore|rather|actually|changed? (?:my mind|it to)|` +
    String.raw`en cambio|mejor|ya no|volvamos)\b|다시|대신|말고|아니라|还是|改回|不要再|不用|やっぱり|ではなく|に戻`,
  'i',
);

/** Code terms and file names of a decision: what it is about. */
function subjects(content: string): Set<string> {
  const quoted = [...content.matchAll(/\x60([^\x60]+)\x60/g)].map((m) => m[1]!.toLowerCase());
  const files = content.match(/[\w.-]+\.[a-z]{1,5}\b|[\w-]+\/[\w./-]+/gi) ?? [];
  return new Set([...quoted, ...files.map((f) => f.toLowerCase())]);
}

function supersedes(later: TimelineEvent, earlier: TimelineEvent): boolean {
  if (later.type !== 'decision' || earlier.type !== 'decision' || later.content === earlier.content) return false;
  // Most words shared says "same subject" only within one session; across sessions it may be a restatement.
  const sameSession = later.source.session === earlier.source.session;
  if (sameSession && similarity(contentTokens(later.content), contentTokens(earlier.content)) >= SAME_SUBJECT)
    return true;
  const a = subjects(later.content);
  return REVERSAL.test(later.content) && [...subjects(earlier.content)].some((s) => a.has(s));
}

/** The events without decisions that a later decision on the same subject replaced, in their input order. */
export function dropSupersededDecisions(events: readonly TimelineEvent[]): TimelineEvent[] {
  const time = (e: TimelineEvent): string => e.timestamp;
  return events.filter(
    (e) =>
      e.type !== 'decision' ||
      !events.some(
        (other) =>
          other !== e &&
          (time(other) > time(e) ||
            (time(other) === time(e) &&
              other.source.session === e.source.session &&
              other.source.message > e.source.message)) &&
          supersedes(other, e),
      ),
  );
}
