// Owns the source-adapter contract suite: `describeAdapterContract(adapter, fixtures)` registers the same
// vitest checks for every adapter — discovery on a temp tree, detection, parse of a minimal file,
// malformed / unknown / truncated input, stable ids, and incremental ingest through the real engine and
// a temp SQLite store. Each adapter supplies small synthetic fixtures (`contract-fixtures/<agent>.ts`).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingest } from '../../src/core/ingest/ingest.js';
import { readHead } from '../../src/core/ingest/resolve-inputs.js';
import type { ParseOutput } from '../../src/shared/model.js';
import { openStore, type Store } from '../../src/store/db.js';
import type { LineRecord, SourceAdapter } from '../../src/sources/types.js';

interface ContractVariant {
  /** Writes the variant at `path` (the directory exists). */
  write(path: string): void;
}

export interface AdapterContractFixtures {
  /**
   * Path of the session file below a discovery root (e.g. `proj/chats/session-x.jsonl`); discover(root) must find it.
   */
  sessionPath: string;
  /**
   * Lays out session files and, beside them, files discovery must pass over by name or place (sidecars,
   * indexes, notes); returns every path discover(root) must return.
   */
  makeTree(root: string): string[];
  /** The minimal valid session file and what parsing it must give. */
  minimal: ContractVariant & { sessions: number; messages: number; project?: string };
  /** Files (relative to a root) that detect must reject by content or name: at least one JSON and one Markdown file. */
  unrelated: { path: string; content: string }[];
  /** A variant with malformed records: the 1-based lines reported, and how many messages still come out. */
  malformed: ContractVariant & { lines: number[]; messages: number };
  /** A variant with a record of an unknown type (omit when the format has no record types). */
  unknownRecord?: ContractVariant & { skippedType: string; messages: number };
  /** A variant whose last record is cut short. */
  truncated: ContractVariant;
  /** Line adapters: appends exactly one new message record to the minimal file. */
  append?: (path: string) => void;
  /**
   * File adapters: rewrites one message of the minimal file (keeping every key); returns its key and a word now in it.
   */
  editOne?: (path: string) => { key: string; marker: string };
}

/** Parses `path` the way the engine would hand it over: all non-empty lines (line adapters) or the file. */
async function parseWithAdapter(adapter: SourceAdapter, path: string): Promise<ParseOutput> {
  if (adapter.format === 'file') return adapter.parseFile({ path });
  return adapter.parseLines(fileLines(path), { path });
}

function fileLines(path: string): LineRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((text, i) => ({ text: text.replace(/\r$/, ''), line: i + 1 }))
    .filter((l) => l.text.length > 0);
}

const messageIds = (out: ParseOutput) => out.messages.map((m) => `${m.sessionKey}/${m.key}`);
const contentOf = (out: ParseOutput) =>
  new Map(out.messages.map((m) => [`${m.sessionKey}/${m.key}`, JSON.stringify(m.blocks)]));

function count(store: Store, sql: string, ...args: unknown[]): number {
  return (store.db.prepare(sql).get(...args) as { n: number }).n;
}

export function describeAdapterContract(adapter: SourceAdapter, fixtures: AdapterContractFixtures): void {
  const base = mkdtempSync(join(tmpdir(), `strata-contract-${adapter.agent}-`));
  let n = 0;
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  /** A fresh root holding the given variant at the fixture's session path. */
  const place = (variant: ContractVariant): { root: string; path: string } => {
    const root = join(base, `case-${++n}`);
    const path = join(root, fixtures.sessionPath);
    mkdirSync(dirname(path), { recursive: true });
    variant.write(path);
    return { root, path };
  };

  describe(`${adapter.agent} adapter contract`, () => {
    it('discovers exactly the session files of a temp tree, not the unrelated files beside them', () => {
      const root = join(base, `tree-${++n}`);
      mkdirSync(root, { recursive: true });
      const expected = fixtures.makeTree(root);
      expect(expected.length).toBeGreaterThan(0);
      expect([...adapter.discover(root)].sort()).toEqual([...expected].sort());
      const { root: single, path } = place(fixtures.minimal);
      expect(adapter.discover(single)).toEqual([path]);
      expect(adapter.discover(join(base, 'does-not-exist'))).toEqual([]);
    });

    it('detects the minimal file and rejects unrelated JSON and Markdown files', () => {
      const { root, path } = place(fixtures.minimal);
      expect(adapter.detect(path, readHead(path))).toBe(true);
      expect(fixtures.unrelated.some((u) => u.path.endsWith('.md'))).toBe(true);
      expect(fixtures.unrelated.some((u) => /\.jsonl?$/.test(u.path))).toBe(true);
      for (const u of fixtures.unrelated) {
        const file = join(root, u.path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, u.content);
        expect({ file: u.path, detected: adapter.detect(file, readHead(file)) }).toEqual({
          file: u.path,
          detected: false,
        });
      }
    });

    it('parses the minimal file into the expected sessions and messages', async () => {
      const { path } = place(fixtures.minimal);
      const out = await parseWithAdapter(adapter, path);
      expect(out.notSession).toBeUndefined();
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(fixtures.minimal.sessions);
      expect(new Set(messageIds(out)).size).toBe(fixtures.minimal.messages);
      for (const s of out.sessions) {
        expect(s.agent).toBe(adapter.agent);
        if (fixtures.minimal.project !== undefined) expect(s.project).toBe(fixtures.minimal.project);
      }
      const sessionKeys = new Set(out.sessions.map((s) => s.key));
      for (const m of out.messages) {
        expect(sessionKeys.has(m.sessionKey)).toBe(true);
        expect(m.line).toBeGreaterThan(0);
        if (m.timestamp !== undefined) expect(Number.isNaN(Date.parse(m.timestamp))).toBe(false);
        for (const b of m.blocks) expect(typeof b.text).toBe('string');
      }
    });

    it('counts malformed records with their line numbers instead of throwing', async () => {
      const { path } = place(fixtures.malformed);
      const out = await parseWithAdapter(adapter, path);
      expect(out.malformed.map((m) => m.line)).toEqual(fixtures.malformed.lines);
      for (const m of out.malformed) expect(m.reason.length).toBeGreaterThan(0);
      expect(new Set(messageIds(out)).size).toBe(fixtures.malformed.messages);
    });

    if (fixtures.unknownRecord) {
      const unknown = fixtures.unknownRecord;
      it('counts unknown record types in skipped', async () => {
        const { path } = place(unknown);
        const out = await parseWithAdapter(adapter, path);
        expect(out.skipped[unknown.skippedType]).toBe(1);
        expect(out.malformed).toEqual([]);
        expect(new Set(messageIds(out)).size).toBe(unknown.messages);
      });
    }

    it('survives a truncated file (parse and ingest), keeping at most the complete records', async () => {
      const { root, path } = place(fixtures.truncated);
      const out = await parseWithAdapter(adapter, path);
      expect(new Set(messageIds(out)).size).toBeLessThanOrEqual(fixtures.minimal.messages);
      const store = openStore(join(root, 'strata.db'));
      try {
        const report = await ingest({ store, paths: [path], adapters: [adapter], env: {}, cwd: root });
        expect(report.problems).toEqual([]);
        expect(report.filesFailed).toBe(0);
      } finally {
        store.close();
      }
    });

    it('gives stable session and message keys across re-parses', async () => {
      const { path } = place(fixtures.minimal);
      const first = await parseWithAdapter(adapter, path);
      const second = await parseWithAdapter(adapter, path);
      expect(second.sessions.map((s) => s.key)).toEqual(first.sessions.map((s) => s.key));
      expect(messageIds(second)).toEqual(messageIds(first));
      if (adapter.format === 'lines') {
        // Stateless across calls: the same lines handed over in two runs give the same keys.
        const lines = fileLines(path);
        const cut = Math.ceil(lines.length / 2);
        const a = adapter.parseLines(lines.slice(0, cut), { path });
        const b = adapter.parseLines(lines.slice(cut), { path });
        expect(new Set([...messageIds(a), ...messageIds(b)])).toEqual(new Set(messageIds(first)));
      }
      if (fixtures.editOne) {
        const edited = fixtures.editOne(path);
        const after = await parseWithAdapter(adapter, path);
        expect(messageIds(after)).toEqual(messageIds(first));
        const before = contentOf(first);
        const changed = [...contentOf(after)].filter(([id, content]) => before.get(id) !== content).map(([id]) => id);
        expect(changed).toHaveLength(1);
        expect(changed[0]!.endsWith(`/${edited.key}`)).toBe(true);
      }
    });

    it('ingests incrementally through the engine: skip when unchanged, only the change afterwards', async () => {
      const { root, path } = place(fixtures.minimal);
      const store = openStore(join(root, 'store', 'strata.db'));
      const run = () => ingest({ store, paths: [root], adapters: [adapter], env: {}, cwd: root });
      const sessions = () => count(store, 'SELECT COUNT(*) n FROM sessions');
      const messages = () => count(store, 'SELECT COUNT(*) n FROM messages');
      try {
        const first = await run();
        expect({ problems: first.problems, failed: first.filesFailed, ingested: first.filesIngested }).toEqual({
          problems: [],
          failed: 0,
          ingested: 1,
        });
        expect(first.messagesAdded).toBe(fixtures.minimal.messages);
        expect(sessions()).toBe(fixtures.minimal.sessions);
        expect(messages()).toBe(fixtures.minimal.messages);
        if (fixtures.minimal.project !== undefined) {
          expect(count(store, 'SELECT COUNT(*) n FROM sessions WHERE project = ?', fixtures.minimal.project)).toBe(
            fixtures.minimal.sessions,
          );
        }

        const second = await run();
        expect({ skipped: second.filesSkipped, added: second.messagesAdded, updated: second.messagesUpdated }).toEqual({
          skipped: 1,
          added: 0,
          updated: 0,
        });
        expect(sessions()).toBe(fixtures.minimal.sessions);

        if (adapter.format === 'lines') {
          expect(fixtures.append).toBeDefined();
          fixtures.append!(path);
          const third = await run();
          expect({ added: third.messagesAdded, rewritten: third.filesRewritten }).toEqual({ added: 1, rewritten: 0 });
          expect(messages()).toBe(fixtures.minimal.messages + 1);
        } else {
          expect(fixtures.editOne).toBeDefined();
          const edited = fixtures.editOne!(path);
          const third = await run();
          expect({ added: third.messagesAdded, updated: third.messagesUpdated }).toEqual({ added: 0, updated: 1 });
          expect(messages()).toBe(fixtures.minimal.messages);
          const texts = store.db
            .prepare('SELECT b.text FROM blocks b JOIN messages m ON m.id = b.message_id WHERE m.key = ?')
            .all(edited.key) as { text: string }[];
          expect(texts.map((t) => t.text).join('\n')).toContain(edited.marker);
        }
        expect(sessions()).toBe(fixtures.minimal.sessions);
        const fourth = await run();
        expect({ skipped: fourth.filesSkipped, added: fourth.messagesAdded, updated: fourth.messagesUpdated }).toEqual({
          skipped: 1,
          added: 0,
          updated: 0,
        });
      } finally {
        store.close();
      }
    });
  });
}
