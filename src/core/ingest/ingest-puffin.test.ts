// Ingests the Puffin fixtures through the real ingest engine into a temp store: counts in the store,
// and a changed prompt rewrites only its own message on the next run.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from './ingest.js';
import { openStore } from '../../store/db.js';
import { puffinAdapter } from '../../sources/puffin/index.js';

const FIXTURE = resolve(process.cwd(), '../shared/fixtures/real/puffin/jdubray-puffin-todo-list/history.json');

describe('puffin through the ingest engine', () => {
  it('stores one session per thread and rewrites only the prompt that changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-puffin-ingest-'));
    const project = join(dir, 'todo');
    mkdirSync(join(project, '.puffin'), { recursive: true });
    const path = join(project, '.puffin', 'history.json');
    copyFileSync(FIXTURE, path);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as {
      branches: Record<string, { prompts: Array<{ id: string; response: { content: string } | null }> }>;
    };
    const prompts = Object.values(doc.branches).flatMap((b) => b.prompts);
    const store = openStore(join(dir, 'home', 'strata.db'));
    try {
      const first = await ingest({ store, paths: [project], adapters: [puffinAdapter], env: {}, cwd: dir });
      expect(first.filesIngested).toBe(1);
      const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
      expect(count("SELECT COUNT(*) n FROM sessions WHERE agent = 'puffin'")).toBe(32);
      expect(count('SELECT COUNT(*) n FROM messages')).toBe(prompts.length + prompts.filter((p) => p.response).length);
      expect(count("SELECT COUNT(*) n FROM sessions WHERE project = '" + project.replace(/'/g, "''") + "'")).toBe(32);

      const target = prompts.find((p) => p.response)!;
      target.response!.content += '\n\nEdited later.';
      writeFileSync(path, JSON.stringify(doc, null, 2));
      const second = await ingest({ store, paths: [project], adapters: [puffinAdapter], env: {}, cwd: dir });
      expect(second.messagesAdded).toBe(0);
      expect(second.messagesUpdated).toBe(1);
      const text = store.db
        .prepare('SELECT b.text FROM blocks b JOIN messages m ON m.id = b.message_id WHERE m.key = ?')
        .get(`${target.id}:r`) as { text: string };
      expect(text.text.endsWith('Edited later.')).toBe(true);
    } finally {
      store.close();
    }
  });
});
