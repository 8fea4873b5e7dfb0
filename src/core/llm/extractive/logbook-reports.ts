// Owns bugs the user reports: an error message pasted or quoted in a user turn ("we get this error: …",
// "出现了错误：Error: …") becomes a bug when the agent's reply edits code and the user does not come back
// with the failure still there. Chat exports of editors hold their fixed bugs this way, with no tool result.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { BUG_CUE, FIX_CUE, NARRATION, STILL_FAILING, TENTATIVE } from './logbook-cues.js';
import { agentSaysAfter, editsCode } from './logbook-evidence.js';
import { fixOf, fixText } from './logbook-fixes.js';
import { withoutLongMentions } from './logbook-own-words.js';
import { stripLinks, tidy } from './segments.js';

/** How an error message reads: a named error or exception, or a compiler's or runtime's complaint. */
const ERROR_TEXT = new RegExp(
  String.raw`\b\w*(?:Error|Exception)\b|\berror\b|\bfailed\b|\bnot (?:found|defined|assignable)\b|` +
    String.raw`\bdoes not exist\b|\bcannot (?:find|read|resolve)\b|\bfailed to\b|\bunable to\b|\bno such\b`,
  'i',
);
const MAX_ERROR = 160;

/** A line of pasted code that names an error without reporting one ("raise ValueError(…)", "throw new Error"). */
const CODE_STATEMENT =
  /^(?:raise|throw|except|catch|class|def|function|return|if|elif|else|const|let|var|assert|expect)\b|^\w+\s*=\s*\S/;

/** The error a user message reports: a line inside a fence, or the text after a colon, that reads as one. */
export function reportedError(text: string): string | undefined {
  const candidates: string[] = [];
  let fenced = false;
  for (const raw of text.split('\n')) {
    const line = (fenced ? raw : withoutLongMentions(raw)).trim();
    if (/^\x60{3}/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) candidates.push(line);
    else {
      // "… 出现了错误：Error: Text content does not match" reports what follows its first colon.
      const after = /^[^:：]{1,80}[:：]\s*(.+)$/.exec(line)?.[1];
      if (after && ERROR_TEXT.test(after)) candidates.push(after);
      else if (/^(?:\w*(?:Error|Exception)|\[plugin:[^\]]+\])\b/.test(line)) candidates.push(line);
    }
  }
  const error = candidates.find((l) => ERROR_TEXT.test(l) && l.split(/\s+/).length >= 3 && !CODE_STATEMENT.test(l));
  return error ? stripLinks(error).slice(0, MAX_ERROR) : undefined;
}

/**
 * The reported error at `at` and the agent's reply that fixed it: `edits(i)` tells whether message i
 * changes code. None when no edit follows before the next user turn, or that turn says it still fails.
 */
export function reportedFix(
  messages: readonly LogbookChunkMessage[],
  at: number,
  edits: (i: number) => boolean,
): { error: string; reply: number } | undefined {
  const error = reportedError(messages[at]!.text);
  if (!error) return undefined;
  let reply: number | undefined;
  for (let i = at + 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'user') {
      if (reply === undefined || STILL_FAILING.test(m.text) || reportedError(m.text) === error) return undefined;
      break;
    }
    if (reply === undefined && edits(i)) reply = i;
  }
  return reply === undefined ? undefined : { error, reply };
}

/**
 * A bug the user reported, resolved by the agent's stated fix or cause before the user's next turn; none
 * without one (the error and the file edited alone do not say what was wrong).
 */
export function reportedBug(
  messages: readonly LogbookChunkMessage[],
  at: number,
  error: string,
): { content: string; resolution: string } | undefined {
  const said = agentSaysAfter(messages, at);
  const why = said.find(
    (s) => (FIX_CUE.test(s) || BUG_CUE.test(s)) && !/[?？]$/.test(s) && !NARRATION.test(s) && !TENTATIVE.test(s),
  );
  if (!why) return undefined;
  return { content: tidy(error), resolution: why };
}

/** An error the user reported, with the fix that followed: evidence first, else the agent's stated fix. */
export function userReportedBug(
  messages: readonly LogbookChunkMessage[],
  at: number,
): { content: string; resolution: string } | undefined {
  const error = reportedError(messages[at]!.text);
  if (!error) return undefined;
  const fix = fixOf(messages, at, { error, mentions: messages[at]!.text });
  const stated = reportedFix(messages, at, (i) => editsCode(messages[i]!)) && reportedBug(messages, at, error);
  const text = fix && fixText({ ...fix, said: fix.said ?? stated?.resolution });
  if (text) return { content: tidy(error), resolution: text };
  return stated || undefined;
}
