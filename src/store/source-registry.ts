// Owns the `sources` table: what strata knows of each source file (size, mtime, offset, prefix hash,
// adapter state, status) and archiving sessions whose sources are gone.
import type { Database, Statement } from 'better-sqlite3';
import type { SourceRow } from './session-writer.js';

export type SourceStatus = 'active' | 'missing' | 'error' | 'not_session';

export interface SourceProgress {
  size: number;
  mtimeMs: number;
  offset: number;
  lines: number;
  prefixHash: string | null;
  fingerprint: string | null;
  state: string | null;
  status: SourceStatus;
  statusReason: string | null;
  malformed: number;
  skipped: number;
}

export class SourceRegistry {
  private readonly s: Record<string, Statement>;

  constructor(private readonly db: Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      all: p('SELECT * FROM sources'),
      stats: p('SELECT path, agent, size, mtime_ms FROM sources'),
      insert: p(`INSERT INTO sources (path, agent, first_seen) VALUES (?, ?, ?) RETURNING *`),
      ensure: p(`INSERT INTO sources (path, agent, first_seen) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE SET path = path RETURNING *`),
      update: p(`UPDATE sources SET agent = @agent, size = @size, mtime_ms = @mtimeMs, offset = @offset, lines = @lines, prefix_hash = @prefixHash,
        fingerprint = @fingerprint, state = @state, status = @status, status_reason = @statusReason,
        malformed = malformed + @malformed, skipped = skipped + @skipped, last_ingested = @now WHERE id = @id`),
      setStatus: p('UPDATE sources SET status = ?, status_reason = ? WHERE id = ?'),
      archive: p(`UPDATE sessions SET archived = 1 WHERE id IN (SELECT session_id FROM session_sources WHERE source_id = @id)
        AND NOT EXISTS (SELECT 1 FROM session_sources ss JOIN sources s ON s.id = ss.source_id
                        WHERE ss.session_id = sessions.id AND s.status != 'missing')`),
    };
  }

  loadAll(): Map<string, SourceRow> {
    const map = new Map<string, SourceRow>();
    for (const row of this.s.all!.all() as SourceRow[]) map.set(row.path, row);
    return map;
  }

  /** Path → agent, size and modification time of every known source (what input resolution needs). */
  loadStats(): Map<string, Pick<SourceRow, 'agent' | 'size' | 'mtime_ms'>> {
    const map = new Map<string, Pick<SourceRow, 'agent' | 'size' | 'mtime_ms'>>();
    for (const row of this.s.stats!.all() as Pick<SourceRow, 'path' | 'agent' | 'size' | 'mtime_ms'>[]) map.set(row.path, row);
    return map;
  }

  insert(path: string, agent: string): SourceRow {
    return this.s.insert!.get(path, agent, new Date().toISOString()) as SourceRow;
  }

  /** The row of `path`, inserted if there is none. */
  ensure(path: string, agent: string): SourceRow {
    return this.s.ensure!.get(path, agent, new Date().toISOString()) as SourceRow;
  }

  update(id: number, agent: string, progress: SourceProgress): void {
    this.s.update!.run({ id, agent, ...progress, now: new Date().toISOString() });
  }

  setStatus(id: number, status: SourceStatus, reason: string | null): void {
    this.s.setStatus!.run(status, reason, id);
  }

  /** Marks a source missing and archives the sessions that now have no present source. */
  markMissing(id: number): void {
    this.db.transaction(() => {
      this.s.setStatus!.run('missing', 'source file no longer exists; its sessions are kept', id);
      this.s.archive!.run({ id });
    })();
  }
}
