import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getContext, openContextDb, searchContext } from './context-db.js';
import { buildFtsQuery } from './fts-query.js';
import { openSegmentContext } from './runtime.js';
import { writeContextPack, type WritePackResult } from './write-pack.js';

let root: string;
let db: Database.Database;
let built: WritePackResult;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'strata-ctxdb-'));
  const seg = join(root, 'alpha');
  mkdirSync(seg, { recursive: true });
  writeFileSync(
    join(seg, 'skill.md'),
    '# Deploy\n\nShip the release with care.\n\n## Rollback\n\nUse `git revert` then redeploy.\n',
  );
  writeFileSync(
    join(seg, 'Renfrew.md'),
    '# Parish\n\nThe records moved in 1901.\n\n## Git\n\n我们需要执行rebase然后推送。\n',
  );
  writeFileSync(
    join(seg, 'guide.md'),
    '# Guide\n\nThe deploy pipeline mentions rollback once.\n\n## 使い方\n\n日本語のテキストで設定を説明します。\n',
  );
  // A second segment: its chunks must never appear in alpha's results.
  mkdirSync(join(root, 'beta'));
  writeFileSync(join(root, 'beta', 'other.md'), '# Rollback\n\nbeta rollback rollback rollback\n');
  built = writeContextPack({ repoRoot: root, segment: 'alpha' });
  writeContextPack({ repoRoot: root, segment: 'beta' });
  db = openContextDb(built.paths.dbPath);
});

afterAll(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

describe('context.db', () => {
  it('is written atomically: no temp files are left in _ctx', () => {
    expect(readdirSync(built.paths.ctxDir).sort()).toEqual(['context.db', 'context_pack.json']);
  });

  it('getContext returns a chunk by id with the spec columns, undefined for unknown ids', () => {
    const entry = built.pack.index.find((e) => e.title_path.at(-1) === 'Rollback');
    const chunk = getContext(db, entry?.id ?? '');
    expect(chunk).toMatchObject({
      id: entry?.id,
      doc: 'skill',
      title_path: ['Deploy', 'Rollback'],
      source_path: 'skill.md',
      start_line: 5,
      end_line: 7,
    });
    expect(chunk?.text).toBe('## Rollback\n\nUse `git revert` then redeploy.');
    expect(getContext(db, 'skill:0000000000')).toBeUndefined();
  });

  it('ranks a title match above a body match (bm25 title weight) and stays inside the segment', () => {
    const result = searchContext(db, 'rollback', 5);
    expect(result.mode).toBe('all');
    expect(result.hits.map((h) => h.title_path.join(' > '))).toEqual(['Deploy > Rollback', 'Guide']);
    expect(result.hits.every((h) => h.source_path !== 'other.md')).toBe(true);
  });

  it('handles plain words with punctuation and falls back to any-word matching', () => {
    expect(searchContext(db, 'git-revert?!', 5).hits[0]?.title_path).toEqual(['Deploy', 'Rollback']);
    const any = searchContext(db, 'rollback zebra', 5);
    expect(any.mode).toBe('any');
    expect(any.hits.length).toBe(2);
    expect(searchContext(db, 'zebra', 5).hits).toEqual([]);
  });

  it('accepts explicit FTS5 syntax that parses, and limits results to k', () => {
    expect(searchContext(db, '"redeploy" OR pipeline', 10).hits).toHaveLength(2);
    expect(
      searchContext(db, 'title_path:guide', 10)
        .hits.map((h) => h.title_path.join('/'))
        .sort(),
    ).toEqual(['Guide', 'Guide/使い方']);
    expect(searchContext(db, 'deplo*', 1).hits).toHaveLength(1);
  });

  it('turns malformed queries into INVALID_QUERY with a one-line message', () => {
    for (const q of ['"unterminated', 'rollback AND', '(deploy', 'nosuchcolumn:x OR (', '?!', '   ']) {
      let caught: unknown;
      try {
        searchContext(db, q, 5);
      } catch (error) {
        caught = error;
      }
      expect(caught, q).toMatchObject({ code: 'INVALID_QUERY' });
      expect((caught as Error).message).not.toMatch(/\n|SqliteError/);
    }
  });

  it('finds CJK text by substring', () => {
    const result = searchContext(db, '設定', 5);
    expect(result.mode).toBe('substring');
    expect(result.hits.map((h) => h.title_path.at(-1))).toEqual(['使い方']);
  });

  it("finds a chunk by its file name's stem and a Latin word inside CJK text", () => {
    expect(searchContext(db, 'renfrew', 5).hits.map((h) => h.source_path)).toEqual(['Renfrew.md', 'Renfrew.md']);
    expect(searchContext(db, 'rebase', 5).hits.map((h) => h.title_path.at(-1))).toEqual(['Git']);
  });

  it('searches a question by its words, not its stop words', () => {
    const result = searchContext(db, 'when were the records moved?', 5);
    expect([result.mode, result.match, result.query]).toEqual([
      'all',
      '"records" "moved"',
      'when were the records moved?',
    ]);
    expect(result.hits.map((h) => h.title_path.at(-1))).toEqual(['Parish']);
  });

  it('quotes every plain term so FTS operators in words are inert', () => {
    expect(buildFtsQuery('near the end - or not')).toMatchObject({
      kind: 'terms',
      all: '"near" "the" "end" "or" "not"',
    });
  });

  it('openSegmentContext serves one segment by locator and never another', () => {
    const beta = openSegmentContext({ repoRoot: root, segment: 'beta' });
    try {
      expect(beta.searchContext('rollback').hits.map((h) => h.source_path)).toEqual(['other.md']);
      const alphaId = built.pack.index[0]?.id ?? '';
      expect(beta.getContext(alphaId)).toBeUndefined();
    } finally {
      beta.close();
    }
    expect(() => openSegmentContext({ repoRoot: root, segment: 'gamma' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });
});
