// Owns the `sources` overview: per agent, its default roots on this machine and what the store holds from them.
import { existsSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { Env } from '../../shared/paths.js';
import type { SourceAdapter } from '../../sources/types.js';

export interface AgentSources {
  agent: string;
  displayName: string;
  /** The files and formats the adapter reads (Markdown). */
  formats: string[];
  /** Each default root, whether it exists, and how many session files discovery finds in it now. */
  roots: { path: string; exists: boolean; files: number }[];
  files: number;
  filesByStatus: Record<string, number>;
  sessions: number;
  messages: number;
  lastIngest: string | null;
}

export function listSources(db: Database, adapters: SourceAdapter[], env: Env): AgentSources[] {
  const byStatus = db
    .prepare('SELECT agent, status, COUNT(*) n, MAX(last_ingested) last FROM sources GROUP BY agent, status')
    .all() as {
    agent: string;
    status: string;
    n: number;
    last: string | null;
  }[];
  const sessions = db.prepare('SELECT agent, COUNT(*) n, SUM(message_count) m FROM sessions GROUP BY agent').all() as {
    agent: string;
    n: number;
    m: number;
  }[];
  return adapters.map((adapter) => {
    const rows = byStatus.filter((r) => r.agent === adapter.agent);
    const s = sessions.find((r) => r.agent === adapter.agent);
    const filesByStatus: Record<string, number> = {};
    for (const r of rows) filesByStatus[r.status] = r.n;
    return {
      agent: adapter.agent,
      displayName: adapter.displayName,
      formats: adapter.formats,
      roots: adapter.defaultRoots(env).map((path) => {
        const exists = existsSync(path);
        return { path, exists, files: exists ? adapter.discover(path).length : 0 };
      }),
      files: rows.reduce((n, r) => n + r.n, 0),
      filesByStatus,
      sessions: s?.n ?? 0,
      messages: s?.m ?? 0,
      lastIngest: rows.reduce<string | null>((max, r) => (r.last && (!max || r.last > max) ? r.last : max), null),
    };
  });
}
