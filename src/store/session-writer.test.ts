import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './db.js';
import { SessionWriter } from './session-writer.js';
import {
  countHits,
  indexedThroughOf,
  maxBlockIdOf,
  message,
  result,
  text,
  writeMessages,
  closeWriterStore,
  openWriterStore,
} from './test-db.js';
import type { Block, ParsedMessage } from '../shared/model.js';

let dir: string;
let store: Store;
let sourceId: number;

const hits = (query: string) => countHits(store.db, query);
const indexedThrough = () => indexedThroughOf(store.db);
const maxBlockId = () => maxBlockIdOf(store.db);
const write = (writer: SessionWriter, ...messages: ParsedMessage[]) => writeMessages(writer, sourceId, ...messages);

beforeEach(() => {
  ({ dir, store, sourceId } = openWriterStore());
});
afterEach(() => closeWriterStore(dir, store));

describe('file transactions', () => {
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
