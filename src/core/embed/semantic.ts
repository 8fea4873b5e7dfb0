// Owns semantic ranking: a brute-force cosine scan of the stored vectors of one model (within the search's
// filters), sessions ranked by their best passage, shown as search sessions, and reciprocal-rank fusion.
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';
import { int8View, VECTOR_SCALE } from '../../store/embeddings.js';
import type { SearchOptions, SearchSession } from '../retrieval/search.js';
import { searchFilters } from '../retrieval/search-filters.js';
import { shortIdsFor } from '../retrieval/session-ids.js';
import { snippetAround } from '../retrieval/snippet.js';

export interface SemanticHit {
  sessionId: number;
  blockId: number;
  score: number;
}

/** Sessions by their best passage's cosine to `query`, best first, at most `limit`. */
export function rankSemantic(
  db: Database,
  model: string,
  query: Float32Array,
  options: SearchOptions,
  limit: number,
): SemanticHit[] {
  const where = searchFilters(db, options);
  const scan = cachedStatement(
    db,
    `SELECT v.block_id, m.session_id, v.vector FROM block_vectors v JOIN blocks b ON b.id = v.block_id
      JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id
      WHERE v.model = ? AND ${where.sql}`,
  ).raw(true);
  const best = new Map<number, SemanticHit>();
  for (const [blockId, sessionId, blob] of scan.iterate(model, ...where.params) as Iterable<[number, number, Buffer]>) {
    const v = int8View(blob);
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum += query[i]! * v[i]!;
    const score = sum / VECTOR_SCALE;
    if (score <= 0) continue; // unrelated or opposite: no evidence
    const had = best.get(sessionId);
    if (!had || had.score < score) best.set(sessionId, { sessionId, blockId, score });
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}

/** Reciprocal-rank fusion: Σ 1/(k + rank) over the lists that hold a key, best first. */
export function fuseRanks<K>(lists: K[][], k = 60): K[] {
  const scores = new Map<K, number>();
  for (const list of lists) list.forEach((key, i) => scores.set(key, (scores.get(key) ?? 0) + 1 / (k + i + 1)));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key);
}

interface PassageRow {
  field: string;
  tool_name: string | null;
  text: string;
  session_id: number;
  seq: number;
  timestamp: string | null;
  external_id: string;
  agent: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
}

/** A search session for sessions found by meaning alone: its best passage as the one hit. */
export function semanticSessions(db: Database, hits: SemanticHit[], query: string, context: number): SearchSession[] {
  const load = cachedStatement(
    db,
    `SELECT b.field, b.tool_name, b.text, m.session_id, m.seq, m.timestamp, s.external_id, s.agent, s.project,
      COALESCE(s.title, (SELECT st.first_prompt FROM session_stats st WHERE st.session_id = s.id)) AS title,
      s.started_at
      FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id WHERE b.id = ?`,
  );
  const position = cachedStatement(db, 'SELECT COUNT(*) FROM messages WHERE session_id = ? AND seq <= ?').pluck(true);
  const rows = hits.map((h) => load.get(h.blockId) as PassageRow);
  const shortIds = shortIdsFor(
    db,
    rows.map((r) => r.external_id),
  );
  const words = query.match(/[\p{L}\p{N}_]{4,}/gu) ?? [];
  const needle = words.length
    ? new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i')
    : /(?!)/;
  return rows.map((r, i) => ({
    id: r.external_id,
    shortId: shortIds.get(r.external_id) ?? r.external_id,
    agent: r.agent,
    project: r.project,
    title: r.title,
    startedAt: r.started_at,
    hitCount: 1,
    hits: [
      {
        message: position.get(r.session_id, r.seq) as number,
        field: r.field === 'tool_output' ? `tool:${r.tool_name ?? 'tool'}:result` : r.field,
        timestamp: r.timestamp,
        score: Math.round(hits[i]!.score * 1000) / 1000,
        snippet: snippetAround(r.text, needle, context),
      },
    ],
    semantic: Math.round(hits[i]!.score * 1000) / 1000,
  }));
}
