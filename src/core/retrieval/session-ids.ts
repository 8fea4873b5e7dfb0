// Owns session identifiers as people type them: the shortest unique prefix of each external id (at
// least MIN_ID_LENGTH characters), and resolving a typed prefix back to one session (or a clear error).
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import { cachedStatement } from '../../store/statement-cache.js';
import { sha1 } from '../../shared/hash.js';

export const MIN_ID_LENGTH = 8;

/**
 * An id holding white space (Aider's `<file hash>:<date> <time>`) is shown as the first MIN_ID_LENGTH hex
 * digits of its SHA-1: typed unquoted, as wide as other ids; `resolveSession` accepts it.
 */
export function spacedIdAlias(externalId: string): string | undefined {
  return /\s/.test(externalId) ? sha1(externalId).slice(0, MIN_ID_LENGTH) : undefined;
}

/** Shortest prefix of each id that no other id shares (never shorter than `min`, never longer than the id). */
export function shortestUniquePrefixes(ids: string[], min = MIN_ID_LENGTH): Map<string, string> {
  return prefixesOfSorted([...new Set(ids)].sort(), min);
}

function lcp(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** `shortestUniquePrefixes` of ids already sorted and distinct: one common-prefix length per neighbour pair. */
function prefixesOfSorted(sorted: string[], min: number): Map<string, string> {
  const out = new Map<string, string>();
  let before = 0;
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i]!;
    const after = i + 1 < sorted.length ? lcp(id, sorted[i + 1]!) : 0;
    const need = Math.max(before, after) + 1;
    out.set(id, spacedIdAlias(id) ?? (id.length <= min || need > id.length ? id : id.slice(0, Math.max(min, need))));
    before = after;
  }
  return out;
}

/** Short ids for every session in the store, keyed by external id. */
export function allShortIds(db: Database): Map<string, string> {
  // Read in index order; SQLite's byte order equals JS order for the ASCII ids agents write (else re-sort).
  const ids = db
    .prepare('SELECT DISTINCT external_id FROM sessions ORDER BY external_id')
    .pluck(true)
    .all() as string[];
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) return shortestUniquePrefixes(ids);
  return prefixesOfSorted(ids, MIN_ID_LENGTH);
}

/** The sessions before and after an id in the sorted external-id index (two index lookups). */
function neighboursOf(db: Database, id: string): string[] {
  const before = cachedStatement(
    db,
    'SELECT external_id FROM sessions WHERE external_id < ? ORDER BY external_id DESC LIMIT 1',
  ).pluck(true);
  const after = cachedStatement(
    db,
    'SELECT external_id FROM sessions WHERE external_id > ? ORDER BY external_id LIMIT 1',
  ).pluck(true);
  return [before.get(id), after.get(id)].filter((x): x is string => typeof x === 'string');
}

/**
 * Short ids for just these sessions: each id is compared with its neighbours in the sorted external-id
 * index (two index lookups per id), so the cost does not grow with the store.
 */
export function shortIdsFor(db: Database, externalIds: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of new Set(externalIds)) out.set(id, shortestUniquePrefixes([id, ...neighboursOf(db, id)]).get(id)!);
  return out;
}

/** `shortIdsFor` these ids and their neighbours: the short ids a new id may have lengthened, too. */
export function shortIdsAround(db: Database, externalIds: string[]): Map<string, string> {
  const around = new Set(externalIds);
  for (const id of externalIds) for (const n of neighboursOf(db, id)) around.add(n);
  return shortIdsFor(db, [...around]);
}

export interface ResolvedSession {
  id: number;
  externalId: string;
  agent: string;
  project: string | null;
  title: string | null;
  startedAt: string | null;
  endedAt: string | null;
  parentId: number | null;
  relation: string | null;
}

const COLUMNS = `id, external_id AS externalId, agent, project, title, started_at AS startedAt, ended_at AS endedAt,
  parent_id AS parentId, relation`;

/** Finds the one session whose external id is `typed` or starts with it. */
export function resolveSession(db: Database, typed: string): ResolvedSession {
  const prefix = typed.trim();
  if (!prefix) throw new StrataError('USAGE', 'a session id (or a unique prefix of one) is required');
  const exact = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE external_id = ?`).all(prefix) as ResolvedSession[];
  if (exact.length === 1) return exact[0]!;
  // Range scan on the external-id index: ids in [prefix, prefix + U+FFFF).
  const rows =
    exact.length > 1
      ? exact
      : (db
          .prepare(
            `SELECT ${COLUMNS} FROM sessions WHERE external_id >= ? AND external_id < ? ORDER BY external_id LIMIT 21`,
          )
          .all(prefix, prefix + '\uffff') as ResolvedSession[]);
  if (rows.length === 1) return rows[0]!;
  if (rows.length === 0 && /^[0-9a-f]{8}$/.test(prefix)) {
    const spaced = db
      .prepare(`SELECT ${COLUMNS} FROM sessions WHERE instr(external_id, ' ') > 0 OR instr(external_id, char(9)) > 0`)
      .all() as ResolvedSession[];
    const hit = spaced.filter((r) => spacedIdAlias(r.externalId) === prefix);
    if (hit.length === 1) return hit[0]!;
  }
  if (rows.length === 0) throw new StrataError('NOT_FOUND', `no session matches "${prefix}" (see \`strata index\`)`);
  const list = rows
    .slice(0, 20)
    .map((r) => `${r.externalId} (${r.agent}${r.startedAt ? ', ' + r.startedAt.slice(0, 16).replace('T', ' ') : ''})`);
  const more = rows.length > 20 ? ', ...' : '';
  throw new StrataError(
    'AMBIGUOUS',
    `"${prefix}" matches ${rows.length > 20 ? 'more than 20' : rows.length} sessions: ${list.join('; ')}${more}`,
    {
      details: { candidates: rows.map((r) => r.externalId) },
    },
  );
}
