// Test support for the store writer's tests: messages, blocks and counts of a test store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openStore, type Store } from './db.js';
import { SourceRegistry } from './source-registry.js';
import type { SessionWriter, WriteResult } from './session-writer.js';
import type { Block, ParsedMessage } from '../shared/model.js';

export const result = (): WriteResult => ({ messagesAdded: 0, messagesUpdated: 0, blocksAdded: 0 });
export const message = (key: string, blocks: Block[]): ParsedMessage => ({
  sessionKey: 's',
  key,
  role: 'user',
  kind: 'prompt',
  line: 1,
  blocks,
});
export const text = (t: string): Block => ({ kind: 'text', text: t });
export const countHits = (db: Database, query: string) =>
  db.prepare('SELECT COUNT(*) FROM blocks_fts WHERE blocks_fts MATCH ?').pluck().get(query) as number;
export const indexedThroughOf = (db: Database) =>
  db.prepare('SELECT indexed_through FROM fts_state').pluck().get() as number;
export const maxBlockIdOf = (db: Database) => db.prepare('SELECT MAX(id) FROM blocks').pluck().get() as number;

/** Writes messages of session `s` in merge mode, as one file transaction. */
export function writeMessages(writer: SessionWriter, sourceId: number, ...messages: ParsedMessage[]): void {
  writer.withFileTransaction(() => {
    const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
    for (const m of messages) writer.writeMessage(sessionId, sourceId, m, 'merge', result());
    writer.refreshTouchedSessions();
  });
}

/** A store in a new temp folder with one Claude Code source registered (the writer tests' setting). */
export function openWriterStore(): { dir: string; store: Store; sourceId: number } {
  const dir = mkdtempSync(join(tmpdir(), 'strata-writer-'));
  const store = openStore(join(dir, 'strata.db'));
  const sourceId = new SourceRegistry(store.db).insert(join(dir, 'a.jsonl'), 'claude-code').id;
  return { dir, store, sourceId };
}

export function closeWriterStore(dir: string, store: Store): void {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
