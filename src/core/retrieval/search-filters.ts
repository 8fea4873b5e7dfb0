// Owns turning a search's filters (--in selectors, session, time range, project, agent) into one SQL
// condition over blocks b, messages m and sessions s, shared by the lexical and the semantic rankings.
import type { Database } from 'better-sqlite3';
import type { SearchOptions } from './search.js';
import { selectorsToSql } from './selectors.js';
import { resolveSession } from './session-ids.js';

export function searchFilters(db: Database, options: SearchOptions): { sql: string; params: unknown[] } {
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
    clauses.push('(s.project = ? OR strata_project_match(s.project, ?))');
    params.push(options.project, options.project);
  }
  if (options.agent && options.agent.length > 0) {
    clauses.push(`s.agent IN (${options.agent.map(() => '?').join(',')})`);
    params.push(...options.agent);
  }
  return { sql: clauses.join(' AND '), params };
}
