// Owns `search`: ranked BM25 full-text search over blocks_fts (weights in selectors.ts blockWeightSql; noise
// other than IDE notices excluded unless --in noise, and counted when nothing else matched), questions ranked
// by session (question-words.ts, session-score.ts), keywords missing from every block matched word by word
// (search-words.ts), a bounded substring fallback for identifier and path parts, and a bounded regex scan;
// hits grouped by session, each citing the message number `read` opens.
// An unfiltered query that matches more than RANK_WINDOW blocks is ranked among the newest RANK_WINDOW of
// them (and the output says so): ranking every match of a common word costs ~3 µs per match, and a
// memory search is about recent work first. Filters, -l and -c rank and count every match.
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import type { AgentName } from '../../shared/model.js';
import { COMMON_MATCHES, commonWords } from './common-words.js';
import { buildFtsQuery } from './fts-query.js';
import { questionRows } from './search-question.js';
import { questionWords } from './question-words.js';
import { type Correction, correctQuestion } from './question-typos.js';
import { rankByWords } from './search-words.js';
import { SEARCHED_NOISE_SQL, blockWeightSql, type Selector } from './selectors.js';
import { shortIdsFor } from './session-ids.js';
import type { SessionHeading } from './session-listing.js';
import { cachedStatement } from '../../store/statement-cache.js';
import { snippetAround } from './snippet.js';
import { compileUserRegex, literalRegExp, type UserRegex } from './user-regex.js';
import { searchFilters } from './search-filters.js';
import { checkQuerySize } from '../../shared/query-limits.js';

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
  /** Rank and count every match, never a window of the newest (what -l and -c ask for). */
  exhaustive?: boolean;
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

export interface SearchSession extends SessionHeading {
  /**
   * Hits found for this session: complete for FTS, except that with `window` set they count the ranked
   * window only; bounded by the scan cap for regex/substring.
   */
  hitCount: number;
  hits: SearchHit[];
  /**
   * Set when no block holds every word of the query: 'near' when the session holds them all within a few
   * messages, 'partial' when some are missing (listed in `missing`) or far apart. Absent for block matches.
   */
  match?: 'near' | 'partial';
  missing?: string[];
  /** Cosine of the session's best passage to the query, when semantic ranking found it (--mode). */
  semantic?: number;
}

export interface SearchResult {
  query: string;
  mode: 'fts' | 'substring' | 'regex';
  /** How sessions were ranked (core/embed/mode-search.ts): absent for lexical-only callers. */
  ranking?: 'lexical' | 'semantic' | 'hybrid';
  /** The FTS5 expression used (fts mode). */
  match?: string;
  /** Words of a question that matched nothing, searched by the index's nearest spelling (question-typos.ts). */
  corrected?: Correction[];
  /** Set when the query matched more blocks than the `ranked` newest ones ranked (see RANK_WINDOW). */
  window?: { ranked: number };
  /**
   * Blocks stored but not yet in the full-text index (fts mode): an ingest is writing its next batch,
   * or one was interrupted and the next `strata ingest` indexes them. Absent when 0.
   */
  unindexed?: number;
  sessions: SearchSession[];
  /** When nothing matched in the default scope: how many blocks of noise match (shown with --in noise). */
  hidden?: { noise: number };
}

/** An unfiltered FTS query ranks at most this many of its newest matches. */
export const RANK_WINDOW = COMMON_MATCHES;

/** Upper bound on hits a regex or substring scan collects before it stops. */
export const SCAN_HIT_CAP = 5000;

/**
 * The substring fallback (a term FTS cannot find, e.g. the middle of a word) scans only the newest
 * blocks (unless limited to one session), so a miss costs milliseconds, not a pass over the store.
 */
export const SUBSTRING_SCAN_BLOCKS = 3000;

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
  started_at: string | null;
  score: number;
}

// The title is read once per session shown (TITLE_SQL), not per hit row: a scan reads thousands of rows.
const HIT_COLUMNS = `b.id, b.field, b.kind, b.text, b.tool_name,
  m.session_id, m.seq, m.timestamp, s.external_id, s.agent, s.project, s.started_at`;
const TITLE_SQL = `SELECT COALESCE(s.title, (SELECT st.first_prompt FROM session_stats st WHERE st.session_id = s.id))
  FROM sessions s WHERE s.id = ?`;

/** Tool inputs are JSON: their \\n and \\t escapes read as spaces in a snippet. */
const unescapeJson = (text: string): string => text.replace(/\\[nt]/g, ' ');

/**
 * True when nothing narrows the query: the default scope (everything but noise), no session, time, project or agent.
 */
function unfiltered(options: SearchOptions): boolean {
  return (
    !options.session &&
    !options.after &&
    !options.before &&
    !options.project &&
    !(options.agent && options.agent.length > 0) &&
    (options.in ?? []).length === 0
  );
}

type Ranked = { id: number; session_id: number; score: number };

/**
 * Ranks the newest RANK_WINDOW matches by weighted BM25, reading only the FTS index and the narrow
 * blocks_hit index; `windowed` is true when there were more matches than that.
 */
function rankWindow(db: Database, match: string): { ranked: Ranked[]; windowed: boolean } {
  const rows = cachedStatement(
    db,
    `SELECT w.id, m.session_id, w.bm * ${blockWeightSql('k')} AS score, k.noise IS NOT NULL AND k.noise NOT IN ` +
      `(${SEARCHED_NOISE_SQL}) AS noisy
      FROM (SELECT rowid AS id, bm25(blocks_fts) AS bm FROM blocks_fts WHERE blocks_fts MATCH ? ORDER BY rowid DESC
        LIMIT ${RANK_WINDOW + 1}) w
      JOIN blocks k INDEXED BY blocks_hit ON k.id = w.id JOIN messages m INDEXED BY messages_hit ON
        m.id = k.message_id ORDER BY w.id DESC`,
  )
    .raw(true)
    .all(match) as [number, number, number, number][];
  // One row past the window says there are more matches; it is not ranked.
  const windowed = rows.length > RANK_WINDOW;
  const ranked: Ranked[] = [];
  for (let i = 0; i < Math.min(rows.length, RANK_WINDOW); i++) {
    const [id, session_id, score, noisy] = rows[i]!;
    if (!noisy) ranked.push({ id, session_id, score });
  }
  ranked.sort((a, b) => a.score - b.score || b.id - a.id);
  return { ranked, windowed };
}

/** Blocks of noise (not searched by default) that match, within the query's other filters. */
function countNoise(db: Database, match: string, options: SearchOptions): number {
  const where = searchFilters(db, { ...options, in: [{ category: 'noise', raw: 'noise' }] });
  return cachedStatement(
    db,
    `SELECT COUNT(*) FROM blocks_fts JOIN blocks b ON b.id = blocks_fts.rowid JOIN messages m ON m.id = b.message_id
    JOIN sessions s ON s.id = m.session_id WHERE blocks_fts MATCH ? AND ${where.sql}`,
  )
    .pluck(true)
    .get(match, ...where.params) as number;
}

function fieldSelector(row: Pick<HitRow, 'field' | 'tool_name'>): string {
  if (row.field === 'tool_input') return `tool:${row.tool_name ?? '?'}:input`;
  if (row.field === 'tool_output') return `tool:${row.tool_name ?? '?'}:result`;
  return row.field;
}

const UNINDEXED_SQL = 'SELECT COUNT(*) FROM blocks WHERE id > (SELECT indexed_through FROM fts_state)';

function matchedText(re: UserRegex, text: string): RegExp {
  const m = re.firstMatch(text);
  return literalRegExp(m ? text.slice(m.index, m.index + m.length) : '');
}

export function search(db: Database, options: SearchOptions): SearchResult {
  if (options.query.trim() === '') throw new StrataError('INVALID_QUERY', 'invalid query: it is empty');
  checkQuerySize(options.query, options.regex);
  const where = searchFilters(db, options);
  const perSession = options.maxPerSession ?? 3;
  const sessionLimit = options.limit ?? 20;
  const context = options.context ?? 12;
  const from = 'FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id';
  let rows: HitRow[];
  let mode: SearchResult['mode'];
  let match: string | undefined;
  let window: SearchResult['window'];
  let needle: RegExp;
  const wordMatch = new Map<number, { match: 'near' | 'partial'; missing: string[] }>();
  let userRegex: UserRegex | undefined;
  // Only an unfiltered query ranks a window of the newest matches: a filtered one keeps every word form. A
  // question ranks sessions by the evidence for its words (session-score.ts); -l and -c match blocks.
  const windowed = !options.exhaustive && unfiltered(options);
  const common = windowed ? commonWords(db) : undefined;
  const typed = options.regex || options.exhaustive ? undefined : questionWords(options.query, common);
  // A question's mistyped words are searched by the index's spelling (question-typos.ts).
  const corrected = typed ? correctQuestion(db, typed, common) : undefined;
  const question = corrected && corrected.words.length > 0 ? corrected.words : typed;
  const load = cachedStatement(db, `SELECT ${HIT_COLUMNS}, ? AS score ${from} WHERE b.id = ?`);
  if (question) {
    mode = 'fts';
    const loadRow = (score: number, id: number) => load.get(score, id) as HitRow;
    const scope = windowed ? {} : { where };
    const found = questionRows(db, question, { limit: sessionLimit, perSession, scope, load: loadRow });
    ({ match, needle, rows } = found);
    for (const [id, m] of found.wordMatch) wordMatch.set(id, m);
  } else if (options.regex) {
    mode = 'regex';
    // The user's pattern runs only on the linear-time engine; snippets point at the text it matched.
    userRegex = compileUserRegex(options.query, Boolean(options.ignoreCase));
    needle = /(?:)/g;
    rows = [];
    const scan = cachedStatement(
      db,
      `SELECT ${HIT_COLUMNS}, 0 AS score ${from} WHERE ${where.sql} ORDER BY m.timestamp DESC, m.seq DESC`,
    );
    for (const row of scan.iterate(...where.params) as Iterable<HitRow>) {
      if (!userRegex.test(row.text)) continue;
      rows.push(row);
      if (rows.length >= SCAN_HIT_CAP) break;
    }
  } else {
    const fts = buildFtsQuery(options.query, common);
    match = fts.match;
    mode = 'fts';
    const escaped = fts.highlights.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    needle = new RegExp(escaped.join('|'), 'gi');
    let ranked: Ranked[];
    try {
      // Phase 1 ranks ids only (no text is read); phase 2 below loads the few hits that are shown.
      if (windowed) {
        const ranking = rankWindow(db, fts.match);
        ranked = ranking.ranked;
        if (ranking.windowed) window = { ranked: RANK_WINDOW };
      } else {
        ranked = cachedStatement(
          db,
          `SELECT b.id, m.session_id, bm25(blocks_fts) * ${blockWeightSql('b')} AS score
            FROM blocks_fts JOIN blocks b ON b.id = blocks_fts.rowid JOIN messages m ON m.id = b.message_id JOIN
              sessions s ON s.id = m.session_id
            WHERE blocks_fts MATCH ? AND ${where.sql} ORDER BY score`,
        ).all(fts.match, ...where.params) as Ranked[];
      }
    } catch (error) {
      throw new StrataError('INVALID_QUERY', `invalid query: ${(error as Error).message}`);
    }
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
      // LIKE folds ASCII case without copying each text (lower() would); SQLite folds nothing else either way.
      const terms = fts.needles.map(() => "b.text LIKE ? ESCAPE '\\'").join(' AND ');
      const patterns = fts.needles.map((n) => `%${n.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
      // Within one session (-s) every block is scanned; across the store, the newest blocks only.
      const bound = options.session
        ? ''
        : `b.id > (SELECT COALESCE(MAX(id), 0) FROM blocks) - ${SUBSTRING_SCAN_BLOCKS} AND`;
      rows = cachedStatement(
        db,
        `SELECT ${HIT_COLUMNS}, 0 AS score ${from} WHERE ${bound}
          ${terms} AND ${where.sql} ORDER BY m.timestamp DESC LIMIT ${SCAN_HIT_CAP}`,
      ).all(...patterns, ...where.params) as HitRow[];
    }
    // A question whose words are not all in one block: matched word by word across a session (-l and -c
    // list only sessions with a block holding every word, as grep would).
    if (rows.length === 0) mode = 'fts';
    if (mode === 'fts' && !options.exhaustive && fts.words.length > 1 && kept.size < sessionLimit) {
      const scope = unfiltered(options) ? {} : { where };
      for (const found of rankByWords(db, fts.words, new Set(kept.keys()), sessionLimit - kept.size, scope)) {
        wordMatch.set(found.sessionId, { match: found.match, missing: found.missing });
        for (const h of found.shown.slice(0, perSession)) rows.push(load.get(h.score, h.id) as HitRow);
        for (let i = Math.min(perSession, found.shown.length); i < found.count; i++)
          rows.push({ session_id: found.sessionId } as HitRow);
      }
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
  const title = cachedStatement(db, TITLE_SQL).pluck(true);
  const shortIds = shortIdsFor(
    db,
    [...groups.values()].map((g) => g.rows[0]!.external_id),
  );
  const sessions: SearchSession[] = [...groups.values()].map(({ rows: hits, count }) => {
    const first = hits[0]!;
    const words = wordMatch.get(first.session_id);
    return {
      id: first.external_id,
      shortId: shortIds.get(first.external_id) ?? first.external_id,
      agent: first.agent,
      project: first.project,
      title: title.get(first.session_id) as string | null,
      startedAt: first.started_at,
      hitCount: count,
      hits: hits.map((h) => ({
        message: position.get(h.session_id, h.seq) as number,
        field: fieldSelector(h),
        timestamp: h.timestamp,
        score: Math.round(h.score * 1000) / 1000,
        snippet: snippetAround(
          h.text,
          userRegex ? matchedText(userRegex, h.text) : needle,
          context,
          h.field === 'tool_input' ? unescapeJson : undefined,
        ),
      })),
      ...(words ? { match: words.match, missing: words.missing } : {}),
    };
  });
  const unindexed = mode === 'regex' ? 0 : (cachedStatement(db, UNINDEXED_SQL).pluck(true).get() as number);
  const hidden =
    sessions.length === 0 && match !== undefined && (options.in ?? []).length === 0
      ? { noise: countNoise(db, match, options) }
      : undefined;
  return {
    query: options.query,
    mode,
    ...(match !== undefined ? { match } : {}),
    ...(corrected && question === corrected.words && corrected.corrections.length > 0
      ? { corrected: corrected.corrections }
      : {}),
    ...(window && mode === 'fts' ? { window } : {}),
    ...(unindexed > 0 ? { unindexed } : {}),
    sessions,
    ...(hidden && hidden.noise > 0 ? { hidden } : {}),
  };
}
