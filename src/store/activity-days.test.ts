import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from './db.js';
import { ADD_APPENDED_MESSAGES } from './activity-days.js';
import { tempDir } from '../../test/support/paths.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('session_days of an appended session', () => {
  it('reads the appended messages by id range, never by scanning the whole messages table', () => {
    dir = tempDir('strata-activity-days-');
    const store = openStore(join(dir, 'strata.db'));
    const plan = store.db
      .prepare(`EXPLAIN QUERY PLAN ${ADD_APPENDED_MESSAGES}`)
      .all(1, 1)
      .map((r) => (r as { detail: string }).detail);
    store.close();
    expect(plan.some((d) => d.startsWith('SCAN m'))).toBe(false);
    expect(plan).toContain('SEARCH m USING INTEGER PRIMARY KEY (rowid>?)');
  });
});
