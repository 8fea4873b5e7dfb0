import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { latestSchemaVersion, openStore, type Store } from './db.js';
import { MIGRATIONS } from './migrations/index.js';
import { SessionWriter } from './session-writer.js';
import { SourceRegistry } from './source-registry.js';
import { countHits, indexedThroughOf, message, writeMessages, closeWriterStore, openWriterStore } from './test-db.js';
import type { Block, ParsedMessage } from '../shared/model.js';

let dir: string;
let store: Store;
let sourceId: number;

const hits = (query: string) => countHits(store.db, query);
const indexedThrough = () => indexedThroughOf(store.db);
const write = (writer: SessionWriter, ...messages: ParsedMessage[]) => writeMessages(writer, sourceId, ...messages);

beforeEach(() => {
  ({ dir, store, sourceId } = openWriterStore());
});
afterEach(() => closeWriterStore(dir, store));

describe('ingest-batches migration (schema 6)', () => {
  it('upgrades a schema-5 store: results named from their calls, the call-id index gone, the index complete', () => {
    store.close();
    rmSync(join(dir, 'strata.db'));
    const v5 = openStore(join(dir, 'strata.db'), { migrations: MIGRATIONS.filter((m) => m.version <= 5) });
    const source = new SourceRegistry(v5.db).insert(join(dir, 'a.jsonl'), 'claude-code').id;
    v5.db.exec(`
      INSERT INTO sessions (id, agent, external_id, updated_at) VALUES (1, 'claude-code', 's', 'now');
      INSERT INTO messages (id, session_id, key, seq, role, kind, source_id, line) VALUES (1, 1, 'm1', 1,
        'assistant', 'response', ${source}, 1), (2, 1, 'm2', 2, 'user', 'tool_result', ${source}, 2);
      INSERT INTO blocks (id, message_id, idx, kind, field, text, tool_name, tool_call_id) VALUES
        (1, 1, 0, 'tool_call', 'tool_input', '{}', 'Read', 'c1'), (2, 2, 0, 'tool_result', 'tool_output', 'omega',
          NULL, 'c1');
      INSERT INTO blocks_fts (rowid, text) VALUES (1, '{}'), (2, 'omega');
    `);
    v5.close();
    store = openStore(join(dir, 'strata.db'));
    expect(store.db.prepare('SELECT tool_name FROM blocks WHERE id = 2').pluck().get()).toBe('Read');
    expect(store.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'blocks_call'").pluck().get()).toBe(0);
    expect(indexedThrough()).toBe(2);
    expect(new SessionWriter(store.db).fts.catchUp()).toBe(0);
    expect(hits('omega')).toBe(1);
    expect(store.db.prepare('SELECT COUNT(*) FROM unnamed_results').pluck().get()).toBe(0);
  });
});

describe('tool inputs in the index (schema 7)', () => {
  const call = (input: Record<string, string>): Block => ({
    kind: 'tool_call',
    text: JSON.stringify(input),
    toolName: 'Write',
    toolCallId: 'w1',
    toolInput: input,
  });

  it('indexes the words after JSON escapes: a line-initial word of a written file is found', () => {
    const writer = new SessionWriter(store.db);
    write(writer, {
      ...message('m1', [
        call({ file_path: 'C:\\new\\app.ts', content: 'line one\nimport zeta from "z";\n\texport parseRow' }),
      ]),
      role: 'assistant',
      kind: 'response',
    });
    writer.fts.flush();
    for (const word of ['import', 'export', 'new', 'Row']) expect(hits(word), word).toBe(1);
    for (const glued of ['nimport', 'texport', 'nnew']) expect(hits(glued), glued).toBe(0);
  });

  it('re-indexes the tool inputs a schema-6 store indexed with glued words', () => {
    store.close();
    rmSync(join(dir, 'strata.db'));
    const v6 = openStore(join(dir, 'strata.db'), { migrations: MIGRATIONS.filter((m) => m.version <= 6) });
    const source = new SourceRegistry(v6.db).insert(join(dir, 'a.jsonl'), 'claude-code').id;
    const text = JSON.stringify({ content: 'a\nimport b' });
    v6.db
      .prepare(`INSERT INTO sessions (id, agent, external_id, updated_at) VALUES (1, 'claude-code', 's', 'now')`)
      .run();
    v6.db
      .prepare(
        `INSERT INTO messages (id, session_id, key, seq, role, kind, source_id, line) VALUES (1, 1, 'm1', 1,
          'assistant', 'response', ?, 1)`,
      )
      .run(source);
    v6.db
      .prepare(
        `INSERT INTO blocks (id, message_id, idx, kind, field, text, tool_name) VALUES (1, 1, 0, 'tool_call',
          'tool_input', ?, 'Write'), (2, 1, 1, 'text', 'assistant', 'kept as is', NULL)`,
      )
      .run(text);
    v6.db.prepare('INSERT INTO blocks_fts (rowid, text) VALUES (1, ?), (2, ?)').run(text, 'kept as is');
    v6.db.prepare('UPDATE fts_state SET indexed_through = 2').run();
    expect(v6.db.prepare('SELECT COUNT(*) FROM blocks_fts WHERE blocks_fts MATCH ?').pluck().get('nimport')).toBe(1);
    v6.close();
    store = openStore(join(dir, 'strata.db'));
    expect(hits('import')).toBe(1);
    expect(hits('nimport')).toBe(0);
    expect(hits('kept')).toBe(1);
    expect(store.db.prepare('SELECT COUNT(*) FROM blocks_fts').pluck().get()).toBe(2);
  });
});

describe('unused indexes (schema 8)', () => {
  it('drops the tool-name and source-agent indexes of a schema-7 store, keeping its rows', () => {
    store.close();
    rmSync(join(dir, 'strata.db'));
    const indexes = (s: Store) =>
      s.db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' " +
            "AND name IN ('blocks_tool', 'sources_agent') ORDER BY name",
        )
        .pluck()
        .all();
    const v7 = openStore(join(dir, 'strata.db'), { migrations: MIGRATIONS.filter((m) => m.version <= 7) });
    new SourceRegistry(v7.db).insert(join(dir, 'a.jsonl'), 'claude-code');
    expect(indexes(v7)).toEqual(['blocks_tool', 'sources_agent']);
    v7.close();
    store = openStore(join(dir, 'strata.db'));
    expect(indexes(store)).toEqual([]);
    expect(store.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
    expect(store.db.prepare('SELECT COUNT(*) FROM sources').pluck().get()).toBe(1);
  });
});
