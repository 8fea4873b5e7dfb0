// Owns the digest (spec §2): per doc, the two highest-scoring chunks by title keywords and heading
// level (short overview/intro sections penalised), summarised in at most 1,200 characters.
import { oneLine, truncateChars, countChars } from './text-utils.js';
import type { DigestEntry } from './types.js';

const DIGEST_KEYWORDS = ['core', 'rules', 'workflow', 'commands', 'usage', 'setup', 'api', 'architecture'];
export const DIGEST_MAX_CHARS = 1200;
const DIGEST_CHUNKS_PER_DOC = 2;

export interface DigestCandidate {
  id: string;
  title_path: string[];
  heading_level: number;
  /** Chunk text without its heading line. */
  body: string;
}

/** Scores a chunk for the digest exactly as the spec's score_chunk does. */
export function scoreChunk(title: string, level: number, body: string): number {
  const t = title.toLowerCase();
  let score = 0;
  if (DIGEST_KEYWORDS.some((kw) => t.includes(kw))) score += 3;
  if (level <= 2) score += 2;
  if ((t.includes('overview') || t.includes('intro')) && countChars(body.trim()) < 300) score -= 2;
  return score;
}

/** Builds one digest entry for a doc, or undefined if the doc has no chunk with content. */
export function digestForDoc(doc: string, chunks: readonly DigestCandidate[]): DigestEntry | undefined {
  const withBody = chunks.filter((c) => /\S/.test(c.body));
  const pool = withBody.length > 0 ? withBody : chunks;
  if (pool.length === 0) return undefined;
  const ranked = pool
    .map((c, order) => ({
      c,
      order,
      score: scoreChunk(c.title_path[c.title_path.length - 1] ?? '', c.heading_level, c.body),
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, DIGEST_CHUNKS_PER_DOC)
    .sort((a, b) => a.order - b.order);
  const separator = ' | ';
  const share = Math.floor((DIGEST_MAX_CHARS - separator.length * (ranked.length - 1)) / ranked.length);
  const parts = ranked.map(({ c }) => {
    const title = c.title_path.length > 0 ? c.title_path.join(' > ') : doc;
    const body = oneLine(c.body);
    const label = body ? `${title} → ${body}` : title;
    // Leave room for the ellipsis truncateChars appends.
    return countChars(label) > share ? truncateChars(label, share - 1) : label;
  });
  return { doc, summary: parts.join(separator), source_chunk_ids: ranked.map(({ c }) => c.id) };
}
