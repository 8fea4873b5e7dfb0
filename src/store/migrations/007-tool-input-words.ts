// Owns re-indexing tool inputs whose JSON escapes glued a letter to the next word: a tool call's text is
// its input as JSON, and the tokenizer read `\nimport` as `nimport`, so a word at the start of a line of
// a written file or a command was not found. Rows written from now on space the escapes out (see
// fts-text.ts spaceJsonEscapes); this rewrites the index rows of the stored ones.
import type { Migration } from './types.js';
import { indexedTextOf } from '../prepared-message.js';

export const toolInputWordsMigration: Migration = {
  version: 7,
  name: 'tool-input-words',
  up(db) {
    // Blocks above indexed_through are not in the index yet: the next ingest indexes them the new way.
    // Read in pages by id, so that a large store's tool inputs are never all in memory at once.
    const page = db.prepare(`SELECT id, text FROM blocks WHERE field = 'tool_input' AND instr(text, '\\') > 0
      AND id > ? AND id <= (SELECT indexed_through FROM fts_state WHERE id = 1) ORDER BY id LIMIT 500`);
    const remove = db.prepare('DELETE FROM blocks_fts WHERE rowid = ?');
    const insert = db.prepare('INSERT INTO blocks_fts (rowid, text) VALUES (?, ?)');
    for (let after = 0; ; ) {
      const rows = page.all(after) as { id: number; text: string }[];
      if (rows.length === 0) break;
      for (const row of rows) {
        remove.run(row.id);
        insert.run(row.id, indexedTextOf(row.text, 'tool_input'));
      }
      after = rows[rows.length - 1]!.id;
    }
  },
};
