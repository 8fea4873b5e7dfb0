// AC 1 (HistoryParser): Puffin history.json → branches of prompts with depth, children, dateRange and
// totalPrompts, by JSON.parse and by the streaming path (identical output); malformed entries skipped and
// logged; truncated and missing files; store sessions of any agent as branches.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { HistoryParser, parseStoreHistory, type ParsedHistory, type ParsedPrompt } from './index.js';
import { tempDir } from '../../../test/support/paths.js';
import { CLAUDE_FIXTURES, PUFFIN_FIXTURES } from '../../../test/support/history-index-fixtures.js';

const plain = (h: ParsedHistory) => JSON.stringify([...h.branches].map(([k, v]) => [k, v]));

function rawPrompts(path: string): Array<{ id: string; parentId: string | null; timestamp: number }> {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    branches: Record<string, { prompts: Array<{ id: string; parentId: string | null; timestamp: number }> }>;
  };
  return Object.values(doc.branches).flatMap((b) => b.prompts);
}

describe('HistoryParser', () => {
  for (const fixture of PUFFIN_FIXTURES) {
    it(`parses ${fixture.split('/').slice(-2).join('/')}: every prompt, depth, children, date range`, async () => {
      const raw = rawPrompts(fixture);
      const history = await new HistoryParser(fixture).parse();
      expect(history.totalPrompts).toBe(raw.length);
      expect(history.issues).toEqual([]);
      const all = [...history.branches.values()].flat();
      const byId = new Map(all.map((p) => [p.id, p] as const));
      for (const p of all) {
        if (p.parentId === null || !byId.has(p.parentId)) expect(p.depth).toBe(0);
        else {
          expect(p.depth).toBe(byId.get(p.parentId)!.depth + 1);
          expect(byId.get(p.parentId)!.children).toContain(p.id);
        }
      }
      const times = raw.map((p) => Number(p.timestamp)).filter((t) => t > 0);
      expect(history.dateRange.earliest).toBe(Math.min(...times));
      expect(history.dateRange.latest).toBeGreaterThanOrEqual(Math.max(...times));
      expect(history.source).toMatchObject({ kind: 'puffin-file', path: fixture });
      expect(history.source.contentHash).toMatch(/^[0-9a-f]{64}$/);
      expect(all.filter((p) => p.response !== null).length).toBeGreaterThan(0);
      expect(history.branchNames.get('fullstack')).toBeTypeOf('string');
      expect((await new HistoryParser(fixture).parseBranch('fullstack')).map((p) => p.id)).toEqual(
        history.branches.get('fullstack')!.map((p) => p.id),
      );
      expect(await new HistoryParser(fixture).parseBranch('no-such-branch')).toEqual([]);
    });

    it(`streaming gives the same history for ${fixture.split('/').at(-1)}; visit() sees prompts in order`, async () => {
      const direct = await new HistoryParser(fixture).parse();
      const streamed = await new HistoryParser(fixture, { streamThresholdBytes: 0 }).parse();
      expect(plain(streamed)).toBe(plain(direct));
      expect(streamed.source.contentHash).toBe(direct.source.contentHash);
      const seen: ParsedPrompt[] = [];
      await new HistoryParser(fixture, { streamThresholdBytes: 0, visit: (p) => void seen.push(p) }).parse();
      expect(seen.map((p) => p.id)).toEqual([...direct.branches.values()].flat().map((p) => p.id));
    });
  }

  it('skips malformed entries and logs each with its branch and position (both paths)', async () => {
    const path = join(tempDir(), 'history.json');
    writeFileSync(
      path,
      JSON.stringify({
        branches: {
          main: {
            id: 'main',
            prompts: [
              {
                id: 'a',
                parentId: null,
                content: 'root',
                timestamp: 1000,
                response: { content: 'ok', timestamp: 2000 },
              },
              'not an object',
              { parentId: null, content: 'no id' },
              { id: 'b', parentId: 'a', content: 'child', timestamp: 3000, response: 'bad' },
              { id: 'a', parentId: null, content: 'duplicate' },
              { id: 'c', parentId: 'b', content: 7 },
            ],
          },
          broken: 'not a branch',
        },
      }),
    );
    for (const threshold of [undefined, 0]) {
      const warnings: string[] = [];
      const history = await new HistoryParser(path, {
        streamThresholdBytes: threshold,
        logger: { info() {}, warn: (l) => warnings.push(l) },
      }).parse();
      expect([...history.branches.get('main')!].map((p) => [p.id, p.depth, p.response?.content ?? null])).toEqual([
        ['a', 0, 'ok'],
        ['b', 1, null],
      ]);
      expect(history.issues.map((i) => [i.branchId, i.index])).toEqual([
        ['main', 2],
        ['main', 3],
        ['main', 4],
        ['main', 5],
        ['main', 6],
        [threshold === 0 ? undefined : 'broken', undefined],
      ]);
      // (The streaming walker reports a non-object branch without its key.)
      expect(warnings).toHaveLength(6);
      expect(warnings[0]).toMatch(/branch main, entry 2/);
      expect(history.issues[3]!.reason).toMatch(/duplicate prompt id a/);
    }
  });

  it('keeps the prompts completed before a truncation and reports it', async () => {
    const fixture = PUFFIN_FIXTURES[1]!;
    const text = readFileSync(fixture, 'utf8');
    const path = join(tempDir(), 'history.json');
    writeFileSync(path, text.slice(0, Math.floor(text.length * 0.6)));
    const full = await new HistoryParser(fixture).parse();
    const cut = await new HistoryParser(path).parse();
    expect(cut.totalPrompts).toBeGreaterThan(0);
    expect(cut.totalPrompts).toBeLessThan(full.totalPrompts);
    expect(cut.issues.at(-1)!.reason).toMatch(/truncated or corrupt/);
  });

  it('a missing file is an empty history flagged missing; a non-Puffin JSON is an issue', async () => {
    const dir = tempDir();
    const missing = await new HistoryParser(join(dir, 'none.json')).parse();
    expect(missing).toMatchObject({ totalPrompts: 0, source: { missing: true } });
    writeFileSync(join(dir, 'other.json'), '[1,2,3]');
    const other = await new HistoryParser(join(dir, 'other.json')).parse();
    expect(other.totalPrompts).toBe(0);
    expect(other.issues[0]!.reason).toMatch(/not a Puffin history/);
  });

  it('a parent cycle does not hang: depth is finite and the cycle is reported', async () => {
    const path = join(tempDir(), 'history.json');
    writeFileSync(
      path,
      JSON.stringify({
        branches: {
          m: {
            prompts: [
              { id: 'x', parentId: 'y', content: '1' },
              { id: 'y', parentId: 'x', content: '2' },
            ],
          },
        },
      }),
    );
    const history = await new HistoryParser(path).parse();
    expect(history.totalPrompts).toBe(2);
    expect(history.issues.some((i) => /cycle/.test(i.reason))).toBe(true);
  });

  it('reads store sessions: Puffin threads regroup into branches; Claude Code sessions are chained turns', async () => {
    const dir = tempDir();
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({
        store,
        paths: [PUFFIN_FIXTURES[1]!, CLAUDE_FIXTURES],
        env: { HOME: dir },
        lockPath: join(dir, 'lock'),
      });
      const ids = (agent: string) =>
        (
          store.db
            .prepare('SELECT external_id FROM sessions WHERE agent = ? AND relation IS NULL')
            .all(agent) as Array<{ external_id: string }>
        ).map((r) => r.external_id);
      const fromFile = await new HistoryParser(PUFFIN_FIXTURES[1]!).parse();
      const puffin = parseStoreHistory(store.db, store.path, { sessions: ids('puffin') });
      expect(puffin.totalPrompts).toBe(fromFile.totalPrompts);
      expect(new Set([...puffin.branches.keys()])).toEqual(
        new Set([...fromFile.branches].filter(([, v]) => v.length > 0).map(([k]) => `puffin:${k}`)),
      );
      const fileFullstack = fromFile.branches.get('fullstack')!;
      expect(
        puffin.branches
          .get('puffin:fullstack')!
          .map((p) => p.id)
          .sort(),
      ).toEqual(fileFullstack.map((p) => p.id).sort());
      const claude = parseStoreHistory(store.db, store.path, { sessions: ids('claude-code') });
      expect(claude.source.kind).toBe('store');
      for (const [branchId, prompts] of claude.branches) {
        expect(branchId.startsWith('claude-code:')).toBe(true);
        prompts.forEach((p, i) => {
          expect(p.depth).toBe(i);
          expect(p.parentId).toBe(i === 0 ? null : prompts[i - 1]!.id);
          expect(p.content.trim()).not.toBe('');
        });
      }
      expect([...claude.branches.values()].flat().some((p) => (p.response?.content ?? '') !== '')).toBe(true);
      expect(() => parseStoreHistory(store.db, store.path, { sessions: ['zzzz-no-such'] })).toThrow(
        /no session matches/,
      );
    } finally {
      store.close();
    }
  });
});
