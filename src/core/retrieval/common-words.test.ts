import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/db.js';
import { SessionWriter } from '../../store/session-writer.js';
import { closeWriterStore, message, openWriterStore, text, writeMessages } from '../../store/test-db.js';
import { COMMON_MATCHES, commonWords } from './common-words.js';

let dir: string;
let store: Store;
let sourceId: number;

beforeEach(() => {
  ({ dir, store, sourceId } = openWriterStore());
});
afterEach(() => closeWriterStore(dir, store));

function addBlocks(from: number, to: number): void {
  const writer = new SessionWriter(store.db);
  const messages = [];
  for (let i = from; i < to; i++) messages.push(message(`m${i}`, [text(`alpha note ${i}`)]));
  writeMessages(writer, sourceId, ...messages);
  writer.fts.flush();
}

describe('commonWords', () => {
  it('answers again once the index reaches further (a long-lived connection sees new blocks)', () => {
    addBlocks(0, COMMON_MATCHES - 1);
    expect(commonWords(store.db)('"alpha"')).toBe(false);
    expect(commonWords(store.db)('"alpha"')).toBe(false);
    addBlocks(COMMON_MATCHES - 1, COMMON_MATCHES + 1);
    expect(commonWords(store.db)('"alpha"')).toBe(true);
    expect(commonWords(store.db)('"note"')).toBe(true);
    expect(commonWords(store.db)('"beta"')).toBe(false);
  });
});
