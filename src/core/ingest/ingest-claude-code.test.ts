// End to end through the ingest engine and a real SQLite store: the Claude Code fixture tree, subagent
// parent links, idempotent re-runs, and appending a transcript in two runs vs ingesting it at once.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingest } from './ingest.js';
import { openStore, type Store } from '../../store/db.js';
import { claudeCodeAdapter } from '../../sources/claude-code/index.js';

const CC = resolve(process.cwd(), '../shared/fixtures/real/claude-code');
let dir: string;
let stores: Store[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-cc-ingest-'));
  stores = [];
});
afterEach(() => {
  for (const s of stores) s.close();
  rmSync(dir, { recursive: true, force: true });
});

function newStore(name: string): Store {
  const store = openStore(join(dir, name, 'strata.db'));
  stores.push(store);
  return store;
}
const run = (store: Store, paths: string[]) =>
  ingest({ store, paths, adapters: [claudeCodeAdapter], env: {}, cwd: dir });
const all = <T>(store: Store, sql: string, ...args: unknown[]) => store.db.prepare(sql).all(...args) as T[];
const one = (store: Store, sql: string, ...args: unknown[]) => (store.db.prepare(sql).get(...args) as { n: number }).n;

describe('claude-code ingest', () => {
  it('ingests the fixture tree: sessions, subagent links, prompt log, idempotent re-run', async () => {
    const store = newStore('tree');
    const report = await run(store, [CC]);
    expect(report.filesFailed).toBe(0);
    expect(report.malformedLines).toBe(0);
    // The prompt log; companion files (.meta.json, sessions-index.json) are reported with their own reason.
    expect(report.notSession.filter((n) => !/(\.meta\.json|sessions-index\.json)$/.test(n.path))).toHaveLength(1);
    // 12 main sessions with messages (medium-conversation has none) + 16 subagent transcripts
    expect(one(store, 'SELECT COUNT(*) n FROM sessions')).toBe(28);
    expect(one(store, 'SELECT COUNT(*) n FROM sessions WHERE relation IS NOT NULL')).toBe(16);
    expect(one(store, 'SELECT COUNT(*) n FROM messages')).toBe(1960); // the sum of the per-file table in
    // parser.fixtures.test.ts

    const links = all<{ external_id: string; parent: string | null; relation: string }>(
      store,
      `SELECT s.external_id, p.external_id AS parent, s.relation FROM sessions s LEFT JOIN sessions p ON p.id =
        s.parent_id
       WHERE s.relation IS NOT NULL ORDER BY s.external_id`,
    );
    const byKey = Object.fromEntries(links.map((l) => [l.external_id, l]));
    expect(byKey['agent-aa9b6813c05338fac']).toMatchObject({
      parent: '1fb5e404-604d-4a2b-baf1-3beb42a67371',
      relation: 'subagent',
    });
    expect(byKey['agent-aprompt_suggestion-7c77e3']).toMatchObject({
      parent: '0c4091f0-060f-4af0-8df1-c18d15dd7487',
      relation: 'prompt_suggestion',
    });
    // parents absent from the fixtures stay unlinked but keep their external id
    expect(byKey['agent-acompact-da0465a580706b8c']).toMatchObject({ parent: null, relation: 'compaction' });
    expect(
      one(store, "SELECT COUNT(*) n FROM sessions WHERE parent_external_id = '512f6c74-f82f-4adb-9719-4ae90076677c'"),
    ).toBe(9);

    const second = await run(store, [CC]);
    expect(second.filesIngested).toBe(0);
    expect(second.messagesAdded).toBe(0);
    expect(one(store, 'SELECT COUNT(*) n FROM messages')).toBe(1960);
  });

  it('appending a transcript in two runs stores the same messages and blocks as one run', async () => {
    const source = join(
      CC,
      'omarchy-backup/projects/-home-vwestberg-Claude/5fbb940a-c7f3-404d-bf66-a028fcc250ec.jsonl',
    );
    const text = readFileSync(source, 'utf8');
    const lines = text.split('\n');
    const cut = lines.slice(0, 101).join('\n') + '\n';
    const slug = join(dir, 'src', '-w');
    mkdirSync(slug, { recursive: true });
    const target = join(slug, '5fbb940a-c7f3-404d-bf66-a028fcc250ec.jsonl');
    writeFileSync(target, cut);
    const split = newStore('split');
    await run(split, [target]);
    appendFileSync(target, text.slice(cut.length));
    const again = await run(split, [target]);
    expect(again.bytesRead).toBe(Buffer.byteLength(text) - Buffer.byteLength(cut));

    const once = newStore('once');
    await run(once, [source]);
    const dump = (store: Store) =>
      all(
        store,
        `SELECT m.key, m.kind, m.role, b.idx, b.kind AS bkind, b.text, b.tool_call_id, b.noise
        FROM messages m JOIN blocks b ON b.message_id = m.id ORDER BY m.seq, b.idx`,
      );
    expect(dump(split)).toEqual(dump(once));
    expect(dump(once)).toHaveLength(one(once, 'SELECT COUNT(*) n FROM blocks'));
    const usage = (store: Store) => all(store, 'SELECT * FROM usage ORDER BY api_message_id');
    expect(usage(split)).toEqual(usage(once));
    const prompts = (store: Store) => one(store, 'SELECT prompt_count n FROM sessions');
    expect(prompts(split)).toBe(33);
    expect(prompts(once)).toBe(33);
  });
});
