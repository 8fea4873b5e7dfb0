// Owns the team store's PostgreSQL schema: versioned migrations (as the local store's), the roles of
// least privilege, and the version check that refuses a server schema newer than this strata.

/** A regular-expression class of CJK characters (kana, CJK ideographs, Hangul), for PostgreSQL's `~`. */
export const CJK_CLASS = '[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]';

/** The schema version this strata writes and reads. */
export const TEAM_SCHEMA_VERSION = 1;

/** Every row carries the database role that pushed it: row-level security keys on it. */
const OWNED = `machine TEXT NOT NULL, os_user TEXT NOT NULL, db_user TEXT NOT NULL DEFAULT current_user`;

export const TEAM_MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      -- A machine name belongs to the login role that first pushed it.
      CREATE TABLE strata.machines (
        machine TEXT PRIMARY KEY,
        db_user TEXT NOT NULL DEFAULT current_user,
        first_push TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE strata.sessions (
        ${OWNED},
        agent TEXT NOT NULL,
        external_id TEXT NOT NULL,
        project TEXT,
        title TEXT,
        started_at TEXT,
        ended_at TEXT,
        parent_external_id TEXT,
        models TEXT NOT NULL DEFAULT '[]',
        -- the session's listing entry (statistics rolled up over subagents), as \`strata index --json\`
        listing JSONB,
        messages INTEGER NOT NULL,
        user_messages INTEGER NOT NULL,
        fingerprint TEXT NOT NULL,
        pushed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (machine, agent, external_id)
      );
      -- Short ids: a session's neighbours in id order decide its shortest unique prefix.
      CREATE INDEX sessions_external_id ON strata.sessions (external_id);
      CREATE TABLE strata.messages (
        ${OWNED},
        agent TEXT NOT NULL,
        session_id TEXT NOT NULL,
        key TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        kind TEXT NOT NULL,
        timestamp TEXT,
        model TEXT,
        archived BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (machine, agent, session_id, key)
      );
      CREATE TABLE strata.blocks (
        ${OWNED},
        agent TEXT NOT NULL,
        session_id TEXT NOT NULL,
        message_key TEXT NOT NULL,
        idx INTEGER NOT NULL,
        kind TEXT NOT NULL,
        field TEXT NOT NULL,
        noise TEXT,
        text TEXT NOT NULL,
        tool_name TEXT,
        tool_call_id TEXT,
        tool_input TEXT,
        is_error BOOLEAN NOT NULL DEFAULT false,
        meta TEXT,
        -- Path and identifier separators split words, so \`test\` finds bin/test-locks.sh (as locally).
        tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', translate(left(text, 32768), '/._-:', '     ')))
          STORED,
        PRIMARY KEY (machine, agent, session_id, message_key, idx)
      );
      CREATE INDEX blocks_tsv ON strata.blocks USING gin (tsv);
      -- Trigrams only for text holding CJK (matched as substrings): indexing every text's trigrams
      -- cost a third of a push's time on the LongMemEval corpus.
      CREATE INDEX blocks_trgm ON strata.blocks USING gin (text gin_trgm_ops) WHERE text ~ '${CJK_CLASS}';
      CREATE TABLE strata.logbooks (
        ${OWNED},
        workspace TEXT NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        events INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (machine, workspace)
      );
    `,
  },
];

export const TEAM_TABLES = ['sessions', 'messages', 'blocks', 'logbooks'] as const;

/** Rows of these tables name their machine, which must be one the writing role owns. */
const machineOwned = (t: string) =>
  `EXISTS (SELECT 1 FROM strata.machines o WHERE o.machine = strata.${t}.machine AND o.db_user = current_user)`;

/**
 * The roles: `strata_writer` inserts and updates only rows its own login role pushed (row-level
 * security on db_user), `strata_reader` only selects. One login role per machine, member of the writer.
 */
export function roleSql(): string {
  const tables = TEAM_TABLES.map((t) => `strata.${t}`).join(', ');
  const lines = [
    `DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'strata_writer') THEN CREATE ROLE strata_writer NOLOGIN; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'strata_reader') THEN CREATE ROLE strata_reader NOLOGIN; END IF;
END $$;`,
    'GRANT USAGE ON SCHEMA strata TO strata_writer, strata_reader;',
    `GRANT SELECT ON ${tables}, strata.meta, strata.machines TO strata_writer, strata_reader;`,
    `GRANT INSERT, UPDATE ON ${tables} TO strata_writer;`,
    'GRANT INSERT ON strata.machines TO strata_writer;',
    'ALTER TABLE strata.machines ENABLE ROW LEVEL SECURITY;',
    'DROP POLICY IF EXISTS read_all ON strata.machines;',
    'CREATE POLICY read_all ON strata.machines FOR SELECT USING (true);',
    'DROP POLICY IF EXISTS claim_own ON strata.machines;',
    'CREATE POLICY claim_own ON strata.machines FOR INSERT TO strata_writer WITH CHECK (db_user = current_user);',
  ];
  for (const t of TEAM_TABLES) {
    lines.push(
      `ALTER TABLE strata.${t} ENABLE ROW LEVEL SECURITY;`,
      `DROP POLICY IF EXISTS read_all ON strata.${t};`,
      `CREATE POLICY read_all ON strata.${t} FOR SELECT USING (true);`,
      `DROP POLICY IF EXISTS insert_own ON strata.${t};`,
      `CREATE POLICY insert_own ON strata.${t} FOR INSERT TO strata_writer ` +
        `WITH CHECK (db_user = current_user AND ${machineOwned(t)});`,
      `DROP POLICY IF EXISTS update_own ON strata.${t};`,
      `CREATE POLICY update_own ON strata.${t} FOR UPDATE TO strata_writer ` +
        `USING (db_user = current_user) WITH CHECK (db_user = current_user AND ${machineOwned(t)});`,
    );
  }
  return lines.join('\n');
}

/** The whole setup, as `strata remote init --print` shows it: schema, migrations, roles. */
export function setupSql(): string {
  const parts = [
    'CREATE SCHEMA IF NOT EXISTS strata;',
    'CREATE TABLE IF NOT EXISTS strata.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);',
    ...TEAM_MIGRATIONS.map((m) => m.sql.trim()),
    `INSERT INTO strata.meta (key, value) VALUES ('schema_version', '${TEAM_SCHEMA_VERSION}')
  ON CONFLICT (key) DO UPDATE SET value = excluded.value;`,
    roleSql(),
  ];
  return `${parts.join('\n\n')}\n`;
}
