// Owns the extractive segment summary: the history-index JSON shape (summary, topics, keyEntities,
// importanceScore) computed from the segment's own text, byte-identical for identical input.
import type { SegmentSummary } from '../task-schemas.js';
import { extractEntities, rankEntities } from './entities.js';
import { rankSentences, selectSummary } from './rank.js';
import { detectSignals, extractMarkers, importanceScore } from './signals.js';
import { clip, segmentSentences } from './text.js';
import { topicTags } from './topics.js';

export function summarizeSegment(content: string): SegmentSummary {
  const sentences = segmentSentences(content);
  const markers = extractMarkers(content);
  const hits = detectSignals(sentences.map((s) => s.text).join('\n') + '\n' + markers.map((m) => m.content).join('\n'));
  const picked = selectSummary(rankSentences(sentences));
  let summary = picked
    .map((s) =>
      clip(
        s.text
          .replace(/@\/([a-z]+):\s*/gi, (_m, type: string) => `${capitalize(type.toLowerCase())}: `)
          .replace(/\s*:$/, '.'),
        280,
      ),
    )
    .map(endSentence)
    .join(' ');
  const topMarker = [...markers].sort((a, b) => b.priority - a.priority)[0];
  if (topMarker && !summary.includes(topMarker.content))
    summary = (
      `${capitalize(topMarker.type)}: ${clip(topMarker.content, 200)}` +
      `${/[.!?]$/.test(topMarker.content) ? '' : '.'} ${summary}`
    ).trim();
  if (summary === '') summary = fallbackSummary(content);
  const wordCount = sentences.reduce((n, s) => n + s.text.split(/\s+/).length, 0);
  return {
    summary: clip(summary, 1000),
    topics: topicTags(sentences, hits),
    keyEntities: rankEntities(extractEntities(content)),
    importanceScore: importanceScore(content, markers, hits, wordCount),
  };
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
