// Owns the session filter shared by the session listing, search, activity and the logbook (project,
// agent, time range). The session listing itself is `listSessions` in core/retrieval/session-listing.ts.
import type { AgentName } from '../../shared/model.js';

export interface SessionFilter {
  project?: string;
  agent?: AgentName[];
  since?: string;
  until?: string;
  limit?: number;
  includeArchived?: boolean;
}

export function sessionWhere(filter: SessionFilter, alias = 's'): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.project) {
    clauses.push(`(${alias}.project = ? OR strata_project_match(${alias}.project, ?))`);
    params.push(filter.project, filter.project);
  }
  if (filter.agent && filter.agent.length > 0) {
    clauses.push(`${alias}.agent IN (${filter.agent.map(() => '?').join(',')})`);
    params.push(...filter.agent);
  }
  if (filter.since) {
    clauses.push(`COALESCE(${alias}.ended_at, ${alias}.started_at) >= ?`);
    params.push(filter.since);
  }
  if (filter.until) {
    clauses.push(`${alias}.started_at <= ?`);
    params.push(filter.until);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
