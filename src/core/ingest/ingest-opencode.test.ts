// Ingests an OpenCode database (built on the published schema) through the real ingest engine.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from './ingest.js';
import { openStore } from '../../store/db.js';
import { opencodeAdapter } from '../../sources/opencode/index.js';
import { OpenCodeTestDb, assistantInfo, userInfo } from '../../../test/support/opencode-test-db.js';

describe('opencode through the ingest engine', () => {
  it('ingests opencode.db from the default root while OpenCode keeps it open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-opencode-ingest-'));
    const root = join(dir, 'xdg', 'opencode');
    mkdirSync(root, { recursive: true });
    const db = new OpenCodeTestDb(join(root, 'opencode.db'));
    db.project('prj', '/w');
    db.session({ id: 'ses_1', projectId: 'prj', directory: '/w', title: 'one' });
    db.message('ses_1', 'msg_1', userInfo(1_750_000_000_000), 1_750_000_000_000);
    db.part('ses_1', 'msg_1', 'prt_1', { type: 'text', text: 'hello' }, 1_750_000_000_000);
    db.message('ses_1', 'msg_2', assistantInfo(1_750_000_001_000, 'msg_1', '/w'), 1_750_000_001_000);
    db.part('ses_1', 'msg_2', 'prt_2', { type: 'text', text: 'hi there' }, 1_750_000_001_000);
    const store = openStore(join(dir, 'home', 'strata.db'));
    try {
      const report = await ingest({
        store,
        adapters: [opencodeAdapter],
        env: { XDG_DATA_HOME: join(dir, 'xdg') },
        cwd: dir,
      });
      expect(report.problems).toEqual([]);
      expect(report.messagesAdded).toBe(2);
      const s = store.db
        .prepare("SELECT title, project, input_tokens AS input FROM sessions WHERE agent = 'opencode'")
        .get();
      expect(s).toEqual({ title: 'one', project: '/w', input: 1200 });

      const unchanged = await ingest({
        store,
        adapters: [opencodeAdapter],
        env: { XDG_DATA_HOME: join(dir, 'xdg') },
        cwd: dir,
      });
      expect(unchanged.filesSkipped).toBe(1);
      // A write lands in the WAL (the .db file itself may not change): the fingerprint still sees it.
      db.session({ id: 'ses_2', projectId: 'prj', directory: '/w', title: 'two' });
      db.message('ses_2', 'msg_3', userInfo(1_750_000_002_000), 1_750_000_002_000);
      db.part('ses_2', 'msg_3', 'prt_3', { type: 'text', text: 'second session' }, 1_750_000_002_000);
      const next = await ingest({
        store,
        adapters: [opencodeAdapter],
        env: { XDG_DATA_HOME: join(dir, 'xdg') },
        cwd: dir,
      });
      expect(next.messagesAdded).toBe(1);
      expect(next.messagesUpdated).toBe(0);
      const counts = store.db
        .prepare("SELECT external_id AS id, message_count AS n FROM sessions WHERE agent = 'opencode' ORDER BY id")
        .all();
      expect(counts).toEqual([
        { id: 'ses_1', n: 2 },
        { id: 'ses_2', n: 1 },
      ]);
    } finally {
      store.close();
      db.close();
    }
  });
});
