// The store's re-ingest rules (schema 9): equal blocks are not appended twice, a changed message keeps
// its old blocks as a version, an older copy from another file changes nothing, vanished messages are
// archived, and a session merged from two files is numbered by time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from './db.js';
import { SessionWriter, type WriteResult } from './session-writer.js';
import { SourceRegistry } from './source-registry.js';
import type { Block, ParsedMessage } from '../shared/model.js';

let dir: string;
let store: Store;
let sources: number[];

const result = (): WriteResult => ({ messagesAdded: 0, messagesUpdated: 0, blocksAdded: 0 });
const text = (t: string): Block => ({ kind: 'text', text: t });
const message = (key: string, blocks: Block[], timestamp?: string): ParsedMessage => ({
  sessionKey: 's',
  key,
  role: 'user',
  kind: 'prompt',
  line: 1,
  blocks,
  ...(timestamp ? { timestamp } : {}),
});
const texts = () =>
  store.db
    .prepare('SELECT m.key, b.text FROM messages m JOIN blocks b ON b.message_id = m.id ORDER BY m.seq, b.idx')
    .raw()
    .all();
const versions = () => store.db.prepare('SELECT blocks FROM message_versions ORDER BY id').pluck().all() as string[];

function write(writer: SessionWriter, source: number, mode: 'merge' | 'replace', ...messages: ParsedMessage[]): void {
  writer.withFileTransaction(() => {
    const sessionId = writer.upsertSession('claude-code', { key: 's' }, source);
    for (const m of messages) writer.writeMessage(sessionId, source, m, mode, result());
    writer.refreshTouchedSessions();
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-history-'));
  store = openStore(join(dir, 'strata.db'));
  const registry = new SourceRegistry(store.db);
  sources = [
    registry.insert(join(dir, 'a.jsonl'), 'claude-code').id,
    registry.insert(join(dir, 'b.jsonl'), 'claude-code').id,
  ];
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('merge mode', () => {
  it('appends only the blocks a message does not hold yet', () => {
    const writer = new SessionWriter(store.db);
    write(writer, sources[0]!, 'merge', message('m1', [text('one'), text('two')]));
    write(writer, sources[1]!, 'merge', message('m1', [text('two'), text('three')]));
    expect(texts()).toEqual([
      ['m1', 'one'],
      ['m1', 'two'],
      ['m1', 'three'],
    ]);
  });
});

describe('replace mode across two files', () => {
  for (const order of [
    [0, 1],
    [1, 0],
  ]) {
    it(`keeps the fuller version of a message whatever file comes first (${order.join(', ')})`, () => {
      const writer = new SessionWriter(store.db);
      const versionsOf = [message('m1', [text('a'), text('b')]), message('m1', [text('a')])];
      for (const i of order) write(writer, sources[i]!, 'replace', versionsOf[i]!);
      expect(texts()).toEqual([
        ['m1', 'a'],
        ['m1', 'b'],
      ]);
      expect(versions()).toEqual([]);
    });
  }

  it('saves the stored blocks as a version when a changed message no longer holds them', () => {
    const writer = new SessionWriter(store.db);
    write(writer, sources[0]!, 'replace', message('m1', [text('first draft')]));
    write(writer, sources[0]!, 'replace', message('m1', [text('final text')]));
    expect(texts()).toEqual([['m1', 'final text']]);
    expect(versions()).toHaveLength(1);
    expect(JSON.parse(versions()[0]!)[0]).toMatchObject({ text: 'first draft', kind: 'text' });
  });
});

describe('archiving and order', () => {
  it('archives what a source no longer has, and makes it current again when it comes back', () => {
    const writer = new SessionWriter(store.db);
    write(writer, sources[0]!, 'merge', message('m1', [text('x')]), message('m2', [text('y')]));
    writer.withFileTransaction(() => writer.archiveVanished(sources[0]!, new Set(['1\u0000m1'])));
    expect(store.db.prepare('SELECT key, archived FROM messages ORDER BY seq').raw().all()).toEqual([
      ['m1', 0],
      ['m2', 1],
    ]);
    write(writer, sources[0]!, 'merge', message('m2', [text('y')]));
    expect(store.db.prepare('SELECT archived FROM messages WHERE key = ?').pluck().get('m2')).toBe(0);
    expect(texts()).toEqual([
      ['m1', 'x'],
      ['m2', 'y'],
    ]);
  });

  it("numbers a session merged from two files by time, keeping one file's own order", () => {
    const writer = new SessionWriter(store.db);
    write(
      writer,
      sources[0]!,
      'merge',
      message('m1', [text('1')], '2026-01-01T00:00:01Z'),
      message('m3', [text('3')], '2026-01-01T00:00:03Z'),
    );
    write(
      writer,
      sources[1]!,
      'merge',
      message('m2', [text('2')], '2026-01-01T00:00:02Z'),
      message('m2b', [text('2b')]),
    );
    expect(texts().map((r) => (r as string[])[1])).toEqual(['1', '2', '2b', '3']);
  });
});
