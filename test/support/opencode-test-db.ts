// Test helper: builds an OpenCode database that follows the published schema (tables project,
// session, message, part with JSON `data` columns, as created by OpenCode's drizzle migrations).
import Database from 'better-sqlite3';

const SCHEMA = `
CREATE TABLE project (
  id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text, icon_color text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer, sandboxes text NOT NULL
);
CREATE TABLE session (
  id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL,
  title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer,
  summary_files integer, summary_diffs text, revert text, permission text, time_created integer NOT NULL,
  time_updated integer NOT NULL, time_compacting integer, time_archived integer, workspace_id text, path text,
  agent text, model text,
  FOREIGN KEY (project_id) REFERENCES project(id) ON DELETE CASCADE
);
CREATE TABLE message (
  id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL,
  data text NOT NULL, FOREIGN KEY (session_id) REFERENCES session(id) ON DELETE CASCADE
);
CREATE TABLE part (
  id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL, FOREIGN KEY (message_id) REFERENCES message(id) ON DELETE CASCADE
);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
CREATE INDEX session_project_idx ON session (project_id);
`;

export class OpenCodeTestDb {
  readonly db: Database.Database;

  constructor(path: string, options: { wal?: boolean } = {}) {
    this.db = new Database(path);
    if (options.wal !== false) this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
  }

  project(id: string, worktree: string, time = 1_700_000_000_000): void {
    this.db
      .prepare('INSERT INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, ?)')
      .run(id, worktree, time, time, '[]');
  }

  session(s: {
    id: string;
    projectId: string;
    directory: string;
    title: string;
    parentId?: string;
    time?: number;
  }): void {
    const time = s.time ?? 1_700_000_000_000;
    this.db
      .prepare(
        `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
         VALUES (?, ?, ?, ?, ?, ?, '1.0.0', ?, ?)`,
      )
      .run(s.id, s.projectId, s.parentId ?? null, s.id, s.directory, s.title, time, time);
  }

  message(sessionId: string, id: string, data: unknown, time: number): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.db
      .prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)')
      .run(id, sessionId, time, time, text);
  }

  part(sessionId: string, messageId: string, id: string, data: unknown, time: number): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.db
      .prepare(
        'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, messageId, sessionId, time, time, text);
  }

  close(): void {
    this.db.close();
  }
}

export const userInfo = (time: number) => ({
  role: 'user',
  time: { created: time },
  agent: 'build',
  model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' },
});

export const assistantInfo = (time: number, parentID: string, cwd: string, extra: Record<string, unknown> = {}) => ({
  role: 'assistant',
  time: { created: time, completed: time + 500 },
  parentID,
  modelID: 'claude-sonnet-4',
  providerID: 'anthropic',
  mode: 'build',
  path: { cwd, root: cwd },
  cost: 0.0123,
  tokens: { input: 1200, output: 300, reasoning: 50, cache: { read: 4000, write: 100 } },
  ...extra,
});
