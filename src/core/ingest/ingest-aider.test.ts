// Ingests the Aider fixture folder through the real ingest engine into a temp store: the chat history
// becomes sessions, the input log is reported as not a session.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from './ingest.js';
import { openStore } from '../../store/db.js';
import { aiderAdapter } from '../../sources/aider/index.js';

const LUVATRIX = resolve(process.cwd(), '../shared/fixtures/real/aider/luvatrix');

describe('aider through the ingest engine', () => {
  it('stores the luvatrix session and reports the input log as not a session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-aider-ingest-'));
    const store = openStore(join(dir, 'strata.db'));
    try {
      const report = await ingest({
        store,
        paths: [join(LUVATRIX, '.aider.chat.history.md'), join(LUVATRIX, '.aider.input.history')],
        adapters: [aiderAdapter],
        env: {},
        cwd: dir,
      });
      expect(report.filesIngested + report.filesNotSession).toBe(2);
      expect(report.notSession).toEqual([
        { path: join(LUVATRIX, '.aider.input.history'), reason: expect.stringMatching(/prompt log/) },
      ]);
      const row = store.db
        .prepare("SELECT project, prompt_count AS prompts, started_at AS started FROM sessions WHERE agent = 'aider'")
        .all();
      expect(row).toEqual([
        { project: LUVATRIX, prompts: 17, started: new Date(2026, 4, 2, 13, 55, 39).toISOString() },
      ]);
    } finally {
      store.close();
    }
  });
});
