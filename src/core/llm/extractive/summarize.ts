// Owns the extractive segment summary: the history-index JSON shape (summary, topics, keyEntities,
// importanceScore) computed from the segment's own text, byte-identical for identical input.
import type { SegmentSummary } from '../task-schemas.js';
import { extractEntities, rankEntities } from './entities.js';
import { rankSentences, selectSummary } from './rank.js';
import { detectSignals, extractMarkers, importanceScore } from './signals.js';
import { clip, type Sentence, segmentSentences } from './text.js';
import { topicTags } from './topics.js';

/** The summary of a segment without work: only usage-limit or error replies and pasted instructions. */
export const NO_WORK_SUMMARY = 'No work recorded: only usage-limit or error replies and pasted instructions.';

/** Replies that report no work: usage limits, rate limits and API errors. */
const NO_WORK_REPLY = new RegExp(
  String.raw`\b(?:usage limit|rate limit|limit (?:reached|will reset|resets)|quota (?:exceeded|reached)|` +
    String.raw`credit balance is too low|API Error|overloaded_error|request timed out|prompt is too long|` +
    String.raw`try again (?:later|in)|out of (?:credits|extra usage))\b`,
  'i',
);
/** Pasted instructions (a system prompt, a summarizer's request): the frame of the work, not the work. */
const INSTRUCTIONS = new RegExp(
  String.raw`^(?:you are (?:a|an|now)\b|your (?:task|job|role) is|role: you are|instruction: |respond only|` +
    String.raw`important: this is|summarize this|given the following conversation segment|` +
    String.raw`you are building a project logbook|` +
    String.raw`do not (?:provide|use|ask)|always use|never (?:use|ask))|` +
    String.raw`<\/?(?:summary|system|instructions)>|\buse <summary>`,
  'i',
);

export function summarizeSegment(content: string): SegmentSummary {
  const all = segmentSentences(content);
  // A message that opens with instructions, or carries a summarizer's <summary>, is pasted material whole.
  // "User:" lines inside a pasted transcript read as further user messages: they belong to the paste too.
  const pasted = new Set<number>();
  for (const s of all) {
    const opens = (s.offset === 0 && INSTRUCTIONS.test(s.text)) || /<\/?summary>/i.test(s.text);
    const continues = s.offset === 0 && isRequest(s) && pasted.has(s.message - 1);
    if (opens || continues) pasted.add(s.message);
  }
  const sentences = all.filter(
    (s) => !pasted.has(s.message) && !NO_WORK_REPLY.test(s.text) && !INSTRUCTIONS.test(s.text),
  );
  const markers = extractMarkers(content);
  const hits = detectSignals(sentences.map((s) => s.text).join('\n') + '\n' + markers.map((m) => m.content).join('\n'));
  // What was done and decided leads; the request, when it is picked, follows and says it is one.
  const picked = selectSummary(rankSentences(sentences));
  const ordered = [...picked.filter((s) => !isRequest(s)), ...picked.filter(isRequest)];
  let summary = ordered
    .map((s) => {
      const text = clip(
        s.text
          .replace(/@\/([a-z]+):\s*/gi, (_m, type: string) => `${capitalize(type.toLowerCase())}: `)
          .replace(/\s*:$/, '.'),
        isRequest(s) ? 160 : 280,
      );
      return isRequest(s) ? `Asked: ${text}` : text;
    })
    .map(endSentence)
    .join(' ');
  const topMarker = [...markers].sort((a, b) => b.priority - a.priority)[0];
  if (topMarker && !summary.includes(topMarker.content))
    summary = (
      `${capitalize(topMarker.type)}: ${clip(topMarker.content, 200)}` +
      `${/[.!?]$/.test(topMarker.content) ? '' : '.'} ${summary}`
    ).trim();
  // No reply reported work (limits, errors, pasted material): the requests left alone are no work either.
  const noWork =
    markers.length === 0 &&
    all.length > 0 &&
    !sentences.some((s) => !isRequest(s)) &&
    (sentences.length === 0 || all.some((s) => !isRequest(s)));
  if (noWork) summary = NO_WORK_SUMMARY;
  if (summary === '') summary = fallbackSummary(content);
  const wordCount = sentences.reduce((n, s) => n + s.text.split(/\s+/).length, 0);
  return {
    summary: clip(summary, 1000),
    topics: noWork ? [] : topicTags(sentences, hits),
    keyEntities: rankEntities(extractEntities(content)),
    importanceScore: noWork ? 0.05 : importanceScore(content, markers, hits, wordCount),
  };
}

function isRequest(s: Sentence): boolean {
  return s.role === 'user' || s.role === 'human';
}

function endSentence(text: string): string {
  return /[.!?…"')\]]$/.test(text) ? text : text + '.';
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** For segments without usable prose (tool output only): the first non-empty line, clipped. */
function fallbackSummary(content: string): string {
  const line = content
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line ? clip(line.replace(/\s+/g, ' '), 200) : '(empty segment)';
}
