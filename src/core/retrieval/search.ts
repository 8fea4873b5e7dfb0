// Owns `search`: ranked BM25 full-text search over blocks_fts (tool output ranked at half weight, noise
// excluded unless selected with --in noise), a bounded substring fallback for identifier and path parts,
// and a bounded JavaScript-regex scan; hits grouped by session, each citing the message number `read` opens.
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import type { AgentName } from '../../shared/model.js';
import { buildFtsQuery } from './fts-query.js';
import { selectorsToSql, type Selector } from './selectors.js';
import { resolveSession } from './session-ids.js';
import { shortIdsFor } from './session-ids.js';
import { cachedStatement } from '../../store/statement-cache.js';
import { snippetAround } from './snippet.js';

export interface SearchOptions {
  query: string;
  regex?: boolean;
  ignoreCase?: boolean;
  /** Words of context on each side of a hit (default 12). */
  context?: number;
  /** At most this many hits per session (default 3; counts are always complete). */
  maxPerSession?: number;
  /** At most this many sessions (default 20). */
  limit?: number;
  session?: string;
  in?: Selector[];
  after?: string;
  before?: string;
  project?: string;
  agent?: AgentName[];
}

export interface SearchHit {
  /** 1-based position of the message in its session (what `read <id> N` opens). */
  message: number;
  /** Selector naming the field: user, assistant, thinking, tool:Bash:input, tool:Bash:result, ... */
  field: string;
  timestamp: string | null;
  score: number;
  snippet: string;
}

export interface SearchSession {
  id: string;
  shortId: string;
  agent: string;
  project: string | null;
  title: string | null;
  startedAt: string | null;
  /** Hits found for this session (complete for FTS; bounded by the scan cap for regex/substring). */
  hitCount: number;
  hits: SearchHit[];
}

export interface SearchResult {
  query: string;
  mode: 'fts' | 'substring' | 'regex';
  /** The FTS5 expression used (fts mode). */
  match?: string;
  sessions: SearchSession[];
}

/** Upper bound on hits a regex or substring scan collects before it stops. */
export const SCAN_HIT_CAP = 5000;

/**
 * The substring fallback (a term FTS cannot find, e.g. the middle of a word) scans only the newest
 * blocks, so a miss costs milliseconds, not a pass over the whole store.
 */
export const SUBSTRING_SCAN_BLOCKS = 20_000;

interface HitRow {
  id: number;
  field: string;
  kind: string;
  text: string;
  tool_name: string | null;
  session_id: number;
  seq: number;
  timestamp: string | null;
  external_id: string;
  agent: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  score: number;
}

const HIT_COLUMNS = `b.id, b.field, b.kind, b.text, COALESCE(b.tool_name, (SELECT c.tool_name FROM blocks c WHERE c.tool_call_id = b.tool_call_id AND c.kind = 'tool_call' LIMIT 1)) AS tool_name,
  m.session_id, m.seq, m.timestamp, s.external_id, s.agent, s.project,
  COALESCE(s.title, (SELECT st.first_prompt FROM session_stats st WHERE st.session_id = s.id)) AS title, s.started_at`;

function filters(db: Database, options: SearchOptions): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const scope = selectorsToSql(options.in ?? []);
  clauses.push(scope.sql);
  params.push(...scope.params);
  if (options.session) {
    clauses.push('m.session_id = ?');
    params.push(resolveSession(db, options.session).id);
  }
  if (options.after) {
    clauses.push('m.timestamp >= ?');
    params.push(options.after);
  }
  if (options.before) {
    clauses.push('m.timestamp < ?');
    params.push(options.before);
  }
  if (options.project) {
    clauses.push(`(s.project = ? OR s.project LIKE ? ESCAPE '\\')`);
    params.push(options.project, `%${options.project.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
  }
  if (options.agent && options.agent.length > 0) {
    clauses.push(`s.agent IN (${options.agent.map(() => '?').join(',')})`);
    params.push(...options.agent);
  }
  return { sql: clauses.join(' AND '), params };
}

function fieldSelector(row: Pick<HitRow, 'field' | 'tool_name'>): string {
  if (row.field === 'tool_input') return `tool:${row.tool_name ?? '?'}:input`;
  if (row.field === 'tool_output') return `tool:${row.tool_name ?? '?'}:result`;
  return row.field;
}

function compileRegex(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'gi' : 'g');
  } catch (error) {
    throw new StrataError('INVALID_QUERY', `invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

export function search(db: Database, options: SearchOptions): SearchResult {
  if (options.query.trim() === '') throw new StrataError('INVALID_QUERY', 'invalid query: it is empty');
  const where = filters(db, options);
  const perSession = options.maxPerSession ?? 3;
  const sessionLimit = options.limit ?? 20;
  const context = options.context ?? 12;
  const from = 'FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id';
  let rows: HitRow[];
  let mode: SearchResult['mode'];
  let match: string | undefined;
  let needle: RegExp;
  if (options.regex) {
    mode = 'regex';
    needle = compileRegex(options.query, Boolean(options.ignoreCase));
    const test = new RegExp(needle.source, needle.flags.replace('g', ''));
    rows = [];
    const scan = cachedStatement(db, `SELECT ${HIT_COLUMNS}, 0 AS score ${from} WHERE ${where.sql} ORDER BY m.timestamp DESC, m.seq DESC`);
    for (const row of scan.iterate(...where.params) as Iterable<HitRow>) {
      if (!test.test(row.text)) continue;
      rows.push(row);
      if (rows.length >= SCAN_HIT_CAP) break;
    }
  } else {
    const fts = buildFtsQuery(options.query);
    match = fts.match;
    mode = 'fts';
    const escaped = fts.needles.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    needle = new RegExp(escaped.join('|'), 'gi');
    let ranked: { id: number; session_id: number; score: number }[];
    try {
      // Phase 1 ranks ids only (no text is read); phase 2 below loads the few hits that are shown.
      ranked = cachedStatement(db, `SELECT b.id, m.session_id, bm25(blocks_fts) * (CASE WHEN b.field = 'tool_output' THEN 0.5 ELSE 1.0 END) AS score
          FROM blocks_fts JOIN blocks b ON b.id = blocks_fts.rowid JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id
          WHERE blocks_fts MATCH ? AND ${where.sql} ORDER BY score`)
        .all(fts.match, ...where.params) as typeof ranked;
    } catch (error) {
      throw new StrataError('INVALID_QUERY', `invalid query: ${(error as Error).message}`);
    }
    const load = cachedStatement(db, `SELECT ${HIT_COLUMNS}, ? AS score ${from} WHERE b.id = ?`);
    rows = [];
    const kept = new Map<number, number>();
    for (const r of ranked) {
      const n = kept.get(r.session_id);
      if (n === undefined && kept.size >= sessionLimit) {
        rows.push({ session_id: r.session_id } as HitRow); // counted only
        continue;
      }
      kept.set(r.session_id, (n ?? 0) + 1);
      rows.push((n ?? 0) < perSession ? (load.get(r.score, r.id) as HitRow) : ({ session_id: r.session_id } as HitRow));
    }
    if (rows.length === 0 && fts.substringFallback) {
      mode = 'substring';
      const terms = fts.needles.map(() => 'instr(lower(b.text), ?) > 0').join(' AND ');
      rows = cachedStatement(db, `SELECT ${HIT_COLUMNS}, 0 AS score ${from} WHERE b.id > (SELECT COALESCE(MAX(id), 0) FROM blocks) - ${SUBSTRING_SCAN_BLOCKS}
          AND ${terms} AND ${where.sql} ORDER BY m.timestamp DESC LIMIT ${SCAN_HIT_CAP}`)
        .all(...fts.needles, ...where.params) as HitRow[];
    }
  }
  const groups = new Map<number, { rows: HitRow[]; count: number }>();
  for (const row of rows) {
    const g = groups.get(row.session_id);
    if (g) {
      g.count++;
      if (g.rows.length < perSession && row.text !== undefined) g.rows.push(row);
    } else if (groups.size < sessionLimit && row.text !== undefined) {
      groups.set(row.session_id, { rows: [row], count: 1 });
    }
  }
  const position = cachedStatement(db, 'SELECT COUNT(*) FROM messages WHERE session_id = ? AND seq <= ?').pluck(true);
  const shortIds = shortIdsFor(db, [...groups.values()].map((g) => g.rows[0]!.external_id));
  const sessions: SearchSession[] = [...groups.values()].map(({ rows: hits, count }) => {
    const first = hits[0]!;
    return {
      id: first.external_id,
      shortId: shortIds.get(first.external_id) ?? first.external_id,
      agent: first.agent,
      project: first.project,
      title: first.title,
      startedAt: first.started_at,
      hitCount: count,
      hits: hits.map((h) => ({
        message: position.get(h.session_id, h.seq) as number,
        field: fieldSelector(h),
        timestamp: h.timestamp,
        score: Math.round(h.score * 1000) / 1000,
        snippet: snippetAround(h.field === 'tool_input' ? h.text.replace(/\\[nt]/g, ' ') : h.text, needle, context),
      })),
    };
  });
  return { query: options.query, mode, ...(match !== undefined ? { match } : {}), sessions };
}
