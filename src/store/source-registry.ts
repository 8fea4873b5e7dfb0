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

type SourceStats = Pick<SourceRow, 'path' | 'agent' | 'size' | 'mtime_ms'>;

interface RegistryStatements {
  all: Statement<[], SourceRow>;
  stats: Statement<[], SourceStats>;
  insert: Statement<[path: string, agent: string, firstSeen: string], SourceRow>;
  ensure: Statement<[path: string, agent: string, firstSeen: string], SourceRow>;
  update: Statement<[SourceProgress & { id: number; agent: string; now: string }]>;
  setStatus: Statement<[status: SourceStatus, reason: string | null, id: number]>;
  archive: Statement<[{ id: number }]>;
}

export class SourceRegistry {
  private readonly s: RegistryStatements;

  constructor(private readonly db: Database) {
    this.s = {
      all: db.prepare('SELECT * FROM sources'),
      stats: db.prepare('SELECT path, agent, size, mtime_ms FROM sources'),
      insert: db.prepare(`INSERT INTO sources (path, agent, first_seen) VALUES (?, ?, ?) RETURNING *`),
      ensure: db.prepare(
        `INSERT INTO sources (path, agent, first_seen) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE SET path = path ` +
          `RETURNING *`,
      ),
      update:
        db.prepare(`UPDATE sources SET agent = @agent, size = @size, mtime_ms = @mtimeMs, offset = @offset, lines =
          @lines, prefix_hash = @prefixHash,
        fingerprint = @fingerprint, state = @state, status = @status, status_reason = @statusReason,
        malformed = malformed + @malformed, skipped = skipped + @skipped, last_ingested = @now WHERE id = @id`),
      setStatus: db.prepare('UPDATE sources SET status = ?, status_reason = ? WHERE id = ?'),
      archive: db.prepare(`UPDATE sessions SET archived = 1 WHERE id IN (SELECT session_id FROM session_sources WHERE
          source_id = @id)
        AND NOT EXISTS (SELECT 1 FROM session_sources ss JOIN sources s ON s.id = ss.source_id
                        WHERE ss.session_id = sessions.id AND s.status != 'missing')`),
    };
  }

  loadAll(): Map<string, SourceRow> {
    const map = new Map<string, SourceRow>();
    for (const row of this.s.all.all()) map.set(row.path, row);
    return map;
  }

  /** Path → agent, size and modification time of every known source (what input resolution needs). */
  loadStats(): Map<string, Pick<SourceRow, 'agent' | 'size' | 'mtime_ms'>> {
    const map = new Map<string, Pick<SourceRow, 'agent' | 'size' | 'mtime_ms'>>();
    for (const row of this.s.stats.all()) map.set(row.path, row);
    return map;
  }

  insert(path: string, agent: string): SourceRow {
    return this.s.insert.get(path, agent, new Date().toISOString())!;
  }

  /** The row of `path`, inserted if there is none. */
  ensure(path: string, agent: string): SourceRow {
    return this.s.ensure.get(path, agent, new Date().toISOString())!;
  }

  update(id: number, agent: string, progress: SourceProgress): void {
    this.s.update.run({ id, agent, ...progress, now: new Date().toISOString() });
  }

  setStatus(id: number, status: SourceStatus, reason: string | null): void {
    this.s.setStatus.run(status, reason, id);
  }

  /** Marks a source missing and archives the sessions that now have no present source. */
  markMissing(id: number): void {
    this.db.transaction(() => {
      this.s.setStatus.run('missing', 'source file no longer exists; its sessions are kept', id);
      this.s.archive.run({ id });
    })();
  }
}
