// Owns the search-hit index: a narrow covering index over what ranking needs of each block (its message,
// field and noise mark), so `search` reads a few bytes per candidate instead of the wide blocks rows
// (whose text, often with overflow pages, sits before the noise column).
import type { Migration } from './types.js';

export const searchHitsMigration: Migration = {
  version: 4,
  name: 'search-hits',
  up(db) {
    db.exec('CREATE INDEX blocks_hit ON blocks(id, message_id, field, noise)');
  },
};
