// Owns search on a team store: PostgreSQL full text (`english` tsvector, prefix terms, GIN) for words,
// pg_trgm-backed substring match for CJK runs; sessions ranked by their best passages times the share
// of the query's words they hold. Returns the local search's result shape, so output is the same.
import type { PgClient } from '../../store/team/pg-client.js';
import { CJK_CLASS } from '../../store/team/pg-schema.js';
import type { SearchResult, SearchSession } from '../retrieval/search.js';
import { shortestUniquePrefixes } from '../retrieval/session-ids.js';
import { snippetAround } from '../retrieval/snippet.js';
import { projectMatches } from '../../shared/project-match.js';
import { lastSegment } from './remotes.js';
import { questionTsquery } from './remote-terms.js';
import { checkQuerySize } from '../../shared/query-limits.js';

export interface RemoteSearchOptions {
  query: string;
  limit?: number;
  maxPerSession?: number;
  context?: number;
  project?: string;
  agent?: string[];
  machine?: string;
  user?: string;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Blocks ranked per query before sessions are scored. */
const CANDIDATES = 2000;

interface Row {
  machine: string;
  os_user: string;
  agent: string;
  session_id: string;
  field: string;
  text: string;
  score: number;
  position: number;
  timestamp: string | null;
  project: string | null;
  title: string | null;
  started_at: string | null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function searchRemote(client: PgClient, options: RemoteSearchOptions): Promise<SearchResult> {
  checkQuerySize(options.query);
  const words = [...new Set(options.query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
  const latin = words.filter((w) => !CJK.test(w));
  const cjk = words.filter((w) => CJK.test(w));
  const params: unknown[] = [];
  const add = (v: unknown) => `$${params.push(v)}`;
  const match: string[] = [];
  let rank = '0';
  const tsquery = await questionTsquery(client, latin);
  if (tsquery !== undefined) {
    const q = add(tsquery);
    match.push(`b.tsv @@ to_tsquery('english', ${q})`);
    rank = `ts_rank_cd(b.tsv, to_tsquery('english', ${q}), 1)`;
  }
  // The CJK class lets the planner use the partial trigram index (see pg-schema.ts).
  for (const w of cjk) match.push(`(b.text ~ '${CJK_CLASS}' AND b.text LIKE ${add(`%${w}%`)})`);
  const empty: SearchResult = { query: options.query, mode: 'fts', sessions: [] };
  if (match.length === 0) return empty;
  const filters = ['b.noise IS NULL'];
  if (options.agent?.length) filters.push(`b.agent = ANY(${add(options.agent)})`);
  if (options.machine) filters.push(`b.machine = ${add(options.machine)}`);
  if (options.user) filters.push(`s.os_user = ${add(options.user)}`);
  if (options.project) filters.push(`s.project ILIKE ${add(`%${lastSegment(options.project)}%`)}`);
  const fieldWeight = `CASE WHEN b.field LIKE 'tool:%:result' THEN 0.5 WHEN b.field = 'system' THEN 0.25 ELSE 1 END`;
  const result = await client.query<Row>(
    `SELECT b.machine, s.os_user, b.agent, b.session_id, b.field, b.text,
       (${rank} + ${cjk.length > 0 ? '0.1' : '0'}) * ${fieldWeight} AS score,
       m.position, m.timestamp, s.project, COALESCE(s.title, s.listing->>'title') AS title, s.started_at
     FROM strata.blocks b
     JOIN strata.sessions s ON s.machine = b.machine AND s.agent = b.agent AND s.external_id = b.session_id
     JOIN strata.messages m ON m.machine = b.machine AND m.agent = b.agent AND m.session_id = b.session_id
       AND m.key = b.message_key
     WHERE (${match.join(' OR ')}) AND ${filters.join(' AND ')}
     ORDER BY score DESC LIMIT ${CANDIDATES}`,
    params,
  );
  const rows = result.rows.filter((r) => !options.project || projectMatches(r.project ?? '', options.project));
  if (rows.length === 0) return empty;
  const stems = words.map((w) => (w.length > 5 && !CJK.test(w) ? w.slice(0, 5) : w));
  const needle = new RegExp(stems.map(escapeRegExp).join('|'), 'iu');
  const bySession = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.machine}\u0000${r.agent}\u0000${r.session_id}`;
    const list = bySession.get(key) ?? [];
    list.push(r);
    bySession.set(key, list);
  }
  const scored = [...bySession.values()].map((hits) => {
    const text = hits.map((h) => h.text.toLowerCase()).join('\n');
    const covered = stems.filter((s) => text.includes(s)).length / Math.max(1, stems.length);
    const best = hits.slice(0, 3).reduce((sum, h) => sum + Number(h.score), 0);
    return { hits, score: best * covered * covered };
  });
  scored.sort((a, b) => b.score - a.score);
  const top = scored.slice(0, options.limit ?? 20);
  const short = await shortIdsOnServer(
    client,
    top.map((t) => t.hits[0]!.session_id),
  );
  const sessions: SearchSession[] = top.map(({ hits }) => {
    const first = hits[0]!;
    return {
      id: first.session_id,
      shortId: short.get(first.session_id) ?? first.session_id,
      agent: `${first.agent}@${first.machine}`,
      project: first.project,
      title: first.title,
      startedAt: first.started_at,
      hitCount: hits.length,
      hits: hits.slice(0, options.maxPerSession ?? 3).map((h) => ({
        message: h.position,
        field: h.field,
        timestamp: h.timestamp,
        score: Number(h.score),
        snippet: snippetAround(h.text, needle, options.context ?? 12),
      })),
    };
  });
  return { query: options.query, mode: 'fts', sessions };
}

/** Shortest unique prefixes of `ids` among every session id on the server, from their neighbours. */
async function shortIdsOnServer(client: PgClient, ids: string[]): Promise<Map<string, string>> {
  const around = await client.query<{ prev: string | null; next: string | null }>(
    `SELECT (SELECT max(external_id) FROM strata.sessions WHERE external_id < x.id) AS prev,
       (SELECT min(external_id) FROM strata.sessions WHERE external_id > x.id) AS next
     FROM unnest($1::text[]) AS x(id)`,
    [ids],
  );
  const near = around.rows.flatMap((r) => [r.prev, r.next]).filter((id): id is string => id !== null);
  return shortestUniquePrefixes([...ids, ...near]);
}
