import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestSchemaVersion, openStore, type Store } from './db.js';
import { MIGRATIONS } from './migrations/index.js';
import { FTS_BATCH_CHARS, SessionWriter, type WriteResult } from './session-writer.js';
import type { PreparedBlock } from './prepared-message.js';
import { SourceRegistry } from './source-registry.js';
import type { Block, ParsedMessage } from '../shared/model.js';

let dir: string;
let store: Store;
let sourceId: number;

const result = (): WriteResult => ({ messagesAdded: 0, messagesUpdated: 0, blocksAdded: 0 });
const message = (key: string, blocks: Block[]): ParsedMessage => ({
  sessionKey: 's',
  key,
  role: 'user',
  kind: 'prompt',
  line: 1,
  blocks,
});
const text = (t: string): Block => ({ kind: 'text', text: t });
const hits = (query: string) =>
  store.db.prepare('SELECT COUNT(*) FROM blocks_fts WHERE blocks_fts MATCH ?').pluck().get(query) as number;
const indexedThrough = () => store.db.prepare('SELECT indexed_through FROM fts_state').pluck().get() as number;
const maxBlockId = () => store.db.prepare('SELECT MAX(id) FROM blocks').pluck().get() as number;

function write(writer: SessionWriter, ...messages: ParsedMessage[]): void {
  writer.withFileTransaction(() => {
    const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
    for (const m of messages) writer.writeMessage(sessionId, sourceId, m, 'merge', result());
    writer.refreshTouchedSessions();
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-writer-'));
  store = openStore(join(dir, 'strata.db'));
  sourceId = new SourceRegistry(store.db).insert(join(dir, 'a.jsonl'), 'claude-code').id;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('full-text rows written in batches', () => {
  it("keeps a committed file's rows until the batch is flushed, then fts_state covers every block", () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('alpha bravo')]));
    expect(hits('alpha')).toBe(0);
    expect(writer.fts.pendingChars).toBe('alpha bravo'.length);
    writer.fts.maybeFlush(); // far below a batch: nothing written yet
    expect(hits('alpha')).toBe(0);
    writer.fts.flush();
    expect(hits('alpha')).toBe(1);
    expect(writer.fts.pendingChars).toBe(0);
    expect(indexedThrough()).toBe(maxBlockId());
  });

  it('drops the rows of a rolled-back file, whose block ids the next file reuses', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('kept')]));
    expect(() =>
      writer.withFileTransaction(() => {
        const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
        writer.writeMessage(sessionId, sourceId, message('m2', [text('gamma rolled back')]), 'merge', result());
        throw new Error('parse failed half way');
      }),
    ).toThrow(/half way/);
    expect(writer.fts.pendingChars).toBe('kept'.length);
    write(writer, message('m3', [text('delta')]));
    writer.fts.flush();
    expect(hits('gamma')).toBe(0);
    expect(hits('delta')).toBe(1);
    expect(hits('kept')).toBe(1);
    // The rolled-back message's sequence number is free again: numbering has no gap.
    expect(store.db.prepare('SELECT seq FROM messages ORDER BY seq').pluck().all()).toEqual([1, 2]);
  });

  it('an async file transaction commits when its work resolves and rolls back when it rejects', async () => {
    const writer = new SessionWriter(store.db);
    const writeAfterTurn = (key: string, words: string, fail: boolean) =>
      writer.withFileTransaction(
        async () => {
          const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
          await new Promise(setImmediate);
          writer.writeMessage(sessionId, sourceId, message(key, [text(words)]), 'merge', result());
          if (fail) throw new Error('stream broke');
          return key;
        },
        { inline: true },
      );
    await expect(writeAfterTurn('m1', 'streamed kept', false)).resolves.toBe('m1');
    await expect(writeAfterTurn('m2', 'streamed lost', true)).rejects.toThrow(/stream broke/);
    expect(store.db.inTransaction).toBe(false);
    // Inline: the committed file's rows are in the index already, and fts_state covers them.
    expect(writer.fts.pendingChars).toBe(0);
    expect(hits('kept')).toBe(1);
    expect(hits('lost')).toBe(0);
    expect(indexedThrough()).toBe(maxBlockId());
    expect(store.db.prepare('SELECT key FROM messages').pluck().all()).toEqual(['m1']);
  });

  it('a block deleted before the flush never reaches the index; a rollback brings its row back', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('zeta')]));
    expect(() =>
      writer.withFileTransaction(() => {
        writer.deleteMessagesOfSource(sourceId, new Set());
        throw new Error('rewrite failed');
      }),
    ).toThrow();
    expect(writer.fts.pendingChars).toBe('zeta'.length);
    writer.withFileTransaction(() => writer.deleteMessagesOfSource(sourceId, new Set()));
    expect(writer.fts.pendingChars).toBe(0);
    writer.fts.flush();
    expect(hits('zeta')).toBe(0);
    // FTS5's own check (it throws on a corrupt index).
    store.db.exec("INSERT INTO blocks_fts (blocks_fts, rank) VALUES ('integrity-check', 0)");
  });

  it('a row added and replaced within a rolled-back file does not come back as a ghost', () => {
    const writer = new SessionWriter(store.db);
    expect(() =>
      writer.withFileTransaction(() => {
        const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
        writer.writeMessage(sessionId, sourceId, message('m1', [text('oldphantom')]), 'replace', result());
        writer.writeMessage(sessionId, sourceId, message('m1', [text('newer')]), 'replace', result());
        throw new Error('failed after the rewrite');
      }),
    ).toThrow();
    expect(writer.fts.pendingChars).toBe(0);
    write(writer, message('m2', [text('reuses the id')]));
    writer.fts.flush();
    expect(hits('oldphantom')).toBe(0);
    expect(hits('newer')).toBe(0);
    expect(hits('reuses')).toBe(1);
  });

  it('a large file writes its rows inside its own transaction, after the pending batch', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('small pending')]));
    writer.withFileTransaction(
      () => {
        const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
        writer.writeMessage(sessionId, sourceId, message('m2', [text('large inline')]), 'merge', result());
        expect(hits('inline')).toBe(1); // already in the index, before the commit
        expect(hits('small')).toBe(1); // the batch was written first
      },
      { inline: true },
    );
    expect(writer.fts.pendingChars).toBe(0);
    expect(indexedThrough()).toBe(maxBlockId());
    const through = indexedThrough();
    expect(() =>
      writer.withFileTransaction(
        () => {
          const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
          writer.writeMessage(sessionId, sourceId, message('m3', [text('rolled inline')]), 'merge', result());
          throw new Error('failed');
        },
        { inline: true },
      ),
    ).toThrow();
    expect(hits('rolled')).toBe(0);
    expect(indexedThrough()).toBe(through);
    write(writer, message('m4', [text('deferred again')]));
    expect(hits('deferred')).toBe(0);
    writer.fts.flush();
    expect(hits('deferred')).toBe(1);
  });

  it('indexes at once a block whose id was reused below indexed_through (the newest blocks were deleted)', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('first')]), message('m2', [text('second')]));
    writer.fts.flush();
    const through = indexedThrough();
    writer.withFileTransaction(() => {
      writer.deleteMessagesOfSource(sourceId, new Set(['1\u0000m1']));
      const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
      writer.writeMessage(sessionId, sourceId, message('m3', [text('third')]), 'merge', result());
    });
    expect(maxBlockId()).toBeLessThanOrEqual(through);
    expect(hits('second')).toBe(0);
    expect(hits('third')).toBe(1);
    expect(writer.fts.pendingChars).toBe(0);
  });

  it('a later writer indexes what an interrupted one stored but never flushed', () => {
    const first = new SessionWriter(store.db);
    write(first, message('m1', [text('epsilon'), text('')]), message('m2', [text('camelCaseWord')]));
    // The process dies here: no flush.
    const next = new SessionWriter(store.db);
    expect(next.fts.catchUp()).toBe(2);
    expect(hits('epsilon')).toBe(1);
    expect(hits('Word')).toBe(1); // indexed as ingest indexes it (camelCase sub-words)
    expect(indexedThrough()).toBe(maxBlockId());
    expect(new SessionWriter(store.db).fts.catchUp()).toBe(0);
  });
});

describe('messages merged by key', () => {
  const blocksOf = () =>
    store.db
      .prepare(
        'SELECT m.key, m.seq, b.idx, b.text FROM messages m JOIN blocks b ON b.message_id = m.id ORDER BY m.seq, b.idx',
      )
      .all();
  it('finds a key written earlier in the same file (a session new to the store) and in an earlier file', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('a')]), message('m2', [text('x')]), message('m1', [text('b')]));
    write(writer, message('m1', [text('c')]), message('m3', [text('y')]));
    expect(blocksOf()).toEqual([
      { key: 'm1', seq: 1, idx: 0, text: 'a' },
      { key: 'm1', seq: 1, idx: 1, text: 'b' },
      { key: 'm1', seq: 1, idx: 2, text: 'c' },
      { key: 'm2', seq: 2, idx: 0, text: 'x' },
      { key: 'm3', seq: 3, idx: 0, text: 'y' },
    ]);
  });

  it('replace mode rewrites a message only when its content changed, also within one file', () => {
    const writer = new SessionWriter(store.db);
    const counts = result();
    writer.withFileTransaction(() => {
      const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
      writer.writeMessage(sessionId, sourceId, message('m1', [text('same')]), 'replace', counts);
      writer.writeMessage(sessionId, sourceId, message('m1', [text('same')]), 'replace', counts);
      writer.writeMessage(sessionId, sourceId, message('m1', [text('changed')]), 'replace', counts);
      writer.deleteMessagesOfSource(sourceId, new Set());
      writer.writeMessage(sessionId, sourceId, message('m1', [text('again')]), 'replace', counts);
    });
    expect(counts).toEqual({ messagesAdded: 2, messagesUpdated: 1, blocksAdded: 3 });
    expect(blocksOf()).toEqual([{ key: 'm1', seq: 2, idx: 0, text: 'again' }]);
  });
});

describe('tool names of results', () => {
  it("a result stored after its call (lines appended later) takes the call's name from its session", () => {
    const writer = new SessionWriter(store.db);
    const call: Block = {
      kind: 'tool_call',
      text: '{"command":"ls"}',
      toolName: 'Bash',
      toolCallId: 'toolu_1',
      toolInput: { command: 'ls' },
    };
    write(writer, { ...message('m1', [call]), role: 'assistant', kind: 'response' });
    write(writer, message('m2', [{ kind: 'tool_result', text: 'a.txt', toolCallId: 'toolu_1' }]));
    const other = {
      ...message('m3', [{ kind: 'tool_result', text: 'b.txt', toolCallId: 'toolu_1' } as Block]),
      sessionKey: 'other',
    };
    writer.withFileTransaction(() => {
      const sessionId = writer.upsertSession('claude-code', { key: 'other' }, sourceId);
      writer.writeMessage(sessionId, sourceId, other, 'merge', result());
    });
    const names = store.db.prepare("SELECT text, tool_name FROM blocks WHERE kind = 'tool_result' ORDER BY id").all();
    // Only within the session: the same call id in another session names nothing.
    expect(names).toEqual([
      { text: 'a.txt', tool_name: 'Bash' },
      { text: 'b.txt', tool_name: null },
    ]);
  });
});

describe('results stored before their call', () => {
  it('are named when the call arrives, even in a later run; a deleted result stops waiting', () => {
    const first = new SessionWriter(store.db);
    write(
      first,
      message('m1', [{ kind: 'tool_result', text: 'out', toolCallId: 'toolu_9' }]),
      message('m2', [{ kind: 'tool_result', text: 'gone', toolCallId: 'toolu_8' }]),
    );
    const name = (t: string) => store.db.prepare('SELECT tool_name FROM blocks WHERE text = ?').pluck().get(t);
    const waiting = () => store.db.prepare('SELECT call_id FROM unnamed_results ORDER BY call_id').pluck().all();
    expect(name('out')).toBeNull();
    expect(waiting()).toEqual(['toolu_8', 'toolu_9']);
    // The result of toolu_8 is rewritten away (replace mode): it no longer waits.
    first.withFileTransaction(() => first.deleteMessagesOfSource(sourceId, new Set(['1\u0000m1'])));
    expect(waiting()).toEqual(['toolu_9']);
    const next = new SessionWriter(store.db);
    const call: Block = { kind: 'tool_call', text: '{}', toolName: 'Grep', toolCallId: 'toolu_9', toolInput: {} };
    write(next, { ...message('m3', [call]), role: 'assistant', kind: 'response' });
    expect(name('out')).toBe('Grep');
    expect(waiting()).toEqual([]);
  });
});

describe('packed texts pending in a batch', () => {
  it('writes the batch once the buffers its pending views keep alive are large, however little they hold', () => {
    const writer = new SessionWriter(store.db);
    // A small indexed text in a large batch buffer (say, next to a long tool output clipped for the index).
    const buffer = new ArrayBuffer(2 * FTS_BATCH_CHARS + 1);
    const view = new Uint8Array(buffer, 0, Buffer.from(buffer).write('alpha bravo'));
    const block: PreparedBlock = {
      kind: 'text',
      field: 'user',
      text: view,
      ftsBytes: view,
      ftsBody: null,
      ftsTail: '',
      toolName: null,
      toolCallId: null,
      toolInput: null,
      isError: 0,
      noise: null,
      meta: null,
    };
    writer.withFileTransaction(() => {
      const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
      writer.writePrepared(
        sessionId,
        sourceId,
        {
          sessionKey: 's',
          key: 'm1',
          role: 'user',
          kind: 'prompt',
          timestamp: null,
          model: null,
          line: 1,
          sidechain: 0,
          hash: null,
          meta: null,
          blocks: [block],
        },
        'merge',
        result(),
      );
    });
    expect(writer.fts.pendingChars).toBe(11);
    writer.fts.maybeFlush();
    expect(hits('alpha')).toBe(1);
    expect(store.db.prepare('SELECT text FROM blocks').pluck().get()).toBe('alpha bravo');
  });
});

describe('full-text merging during a bulk ingest', () => {
  it('stops incremental merging, raises the hash size for the bulk and restores both; crisis merges: 64', () => {
    const option = (key: string) => store.db.prepare('SELECT v FROM blocks_fts_config WHERE k = ?').pluck().get(key);
    const writer = new SessionWriter(store.db);
    expect(option('automerge')).toBe(8);
    expect(option('hashsize')).toBeUndefined();
    expect(option('crisismerge')).toBeUndefined();
    writer.fts.setBulkMerging(true);
    expect(option('automerge')).toBe(0);
    expect(option('hashsize')).toBe(4 * 1024 * 1024);
    expect(option('crisismerge')).toBe(64);
    write(writer, message('m1', [text('merged later')]));
    writer.fts.flush();
    writer.fts.setBulkMerging(false);
    expect(option('automerge')).toBe(8);
    expect(option('hashsize')).toBe(1024 * 1024);
    expect(option('crisismerge')).toBe(64);
    expect(hits('merged')).toBe(1);
  });

  it('leaves one segment per full-text batch during the bulk: no merge before 64', () => {
    const segments = () => store.db.prepare('SELECT COUNT(DISTINCT segid) FROM blocks_fts_idx').pluck().get() as number;
    const writer = new SessionWriter(store.db);
    writer.fts.setBulkMerging(true);
    for (let i = 0; i < 20; i++) {
      write(writer, message(`m${i}`, [text(`batch${i} words`)]));
      writer.fts.flush();
    }
    expect(segments()).toBe(20);
    for (let i = 0; i < 20; i++) expect(hits(`batch${i}`), `batch${i}`).toBe(1);
    writer.fts.setBulkMerging(false);
  });

  it('stores automerge 8 again when the row is gone (FTS5 would use its default, 4)', () => {
    const option = (key: string) => store.db.prepare('SELECT v FROM blocks_fts_config WHERE k = ?').pluck().get(key);
    store.db.unsafeMode(true); // FTS5's shadow tables are read-only in better-sqlite3's defensive mode
    store.db.prepare("DELETE FROM blocks_fts_config WHERE k = 'automerge'").run();
    store.db.unsafeMode(false);
    expect(option('automerge')).toBeUndefined();
    new SessionWriter(store.db).fts.setBulkMerging(false);
    expect(option('automerge')).toBe(8);
  });
});

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
        `INSERT INTO messages (id, session_id, key, seq, role, kind, source_id, line) VALUES (1, 1, 'm1', 1, ` +
          `'assistant', 'response', ?, 1)`,
      )
      .run(source);
    v6.db
      .prepare(
        `INSERT INTO blocks (id, message_id, idx, kind, field, text, tool_name) VALUES (1, 1, 0, 'tool_call', ` +
          `'tool_input', ?, 'Write'), (2, 1, 1, 'text', 'assistant', 'kept as is', NULL)`,
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
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('blocks_tool', 'sources_agent') ORDER BY " +
            'name',
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
