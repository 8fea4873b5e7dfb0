// Packs read and write only under the repo root, survive a build killed between its two renames,
// clean up temps of killed builds, find stemmed words, and pack a Trifecta segment's own docs.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrataError } from '../../shared/errors.js';
import { getContext, openContextDb, searchContext, writeContextDb } from './context-db.js';
import { openSegmentContext } from './runtime.js';
import { writeContextPack, readPack } from './write-pack.js';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-pack-safety-'));
  root = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'seg'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'credentials.md'), '# Keys\n\naws_secret_access_key = outside-secret\n');
  writeFileSync(join(outside, 'victim.json'), 'precious\n');
  writeFileSync(
    join(root, 'seg', 'guide.md'),
    '# Guide\n\nThe build was hanging on startup.\n\n## Other\n\nNothing here.\n',
  );
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).code).toBe('USAGE');
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
}

describe('pack paths stay under the repo root', () => {
  it('refuses --segment ../x, an absolute segment and a segment symlinked outside', () => {
    expect(usage(() => writeContextPack({ repoRoot: root, segment: '../outside' }))).toMatch(/outside the repo root/);
    expect(usage(() => writeContextPack({ repoRoot: root, segment: outside }))).toMatch(/relative to --repo-root/);
    symlinkSync(outside, join(root, 'linked'));
    expect(usage(() => writeContextPack({ repoRoot: root, segment: 'linked' }))).toMatch(/outside the repo root/);
    expect(readdirSync(outside).sort()).toEqual(['credentials.md', 'victim.json']);
  });

  it('does not read a symlinked doc that leads outside, and names it as skipped', () => {
    symlinkSync(join(outside, 'credentials.md'), join(root, 'seg', 'creds.md'));
    symlinkSync(join(root, 'seg', 'guide.md'), join(root, 'seg', 'alias.md'));
    const result = writeContextPack({ repoRoot: root, segment: 'seg' });
    expect(result.pack.docs.map((d) => d.file).sort()).toEqual(['alias.md', 'guide.md']);
    expect(result.skipped).toEqual([
      { path: 'creds.md', reason: expect.stringMatching(/symlink to .*outside the repo root/) },
    ]);
    expect(readFileSync(result.paths.packPath, 'utf8')).not.toContain('outside-secret');
    rmSync(join(root, 'seg', 'creds.md'));
    rmSync(join(root, 'seg', 'alias.md'));
  });

  it('refuses a symlinked _ctx rather than writing through it', () => {
    mkdirSync(join(root, 'seg2'));
    writeFileSync(join(root, 'seg2', 'a.md'), '# A\n\ntext\n');
    symlinkSync(outside, join(root, 'seg2', '_ctx'));
    expect(usage(() => writeContextPack({ repoRoot: root, segment: 'seg2' }))).toMatch(/symlink/);
    expect(usage(() => openSegmentContext({ repoRoot: root, segment: 'seg2' }))).toMatch(/symlink/);
    expect(readdirSync(outside).sort()).toEqual(['credentials.md', 'victim.json']);
    expect(readFileSync(join(outside, 'victim.json'), 'utf8')).toBe('precious\n');
  });
});

describe('a build killed between its two renames', () => {
  it('leaves every id of the JSON pack fetchable, and the next build removes stale temps', () => {
    const first = writeContextPack({ repoRoot: root, segment: 'seg' });
    const oldPack = readPack(first.paths.packPath);
    writeFileSync(join(root, 'seg', 'guide.md'), '# Guide\n\nRewritten entirely.\n');
    // Simulate the kill: the new database is renamed into place, the old JSON stays.
    const stale = join(first.paths.ctxDir, 'context.db.99999.1700000000000.tmp');
    writeFileSync(stale, 'x'.repeat(1000));
    writeFileSync(join(first.paths.ctxDir, '.context_pack.json.99999.1700000000000.tmp'), '{');
    const second = writeContextPack({ repoRoot: root, segment: 'seg' });
    const db = openContextDb(second.paths.dbPath);
    try {
      for (const c of oldPack.chunks) expect(getContext(db, c.id)?.text, c.id).toBe(c.text);
      const searched = searchContext(db, 'startup').hits.map((h) => h.id);
      expect(searched).toEqual([]);
    } finally {
      db.close();
    }
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(second.paths.ctxDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('answers every id of the last JSON from the database written before it', () => {
    const before = writeContextPack({ repoRoot: root, segment: 'seg' });
    writeFileSync(join(root, 'seg', 'guide.md'), '# Guide\n\nThird version.\n');
    const next = writeContextPack({ repoRoot: root, segment: 'seg' });
    // Old JSON beside the new database (kill after the database rename): every old id resolves.
    writeContextDb(join(before.paths.ctxDir, 'check.db'), next.pack, before.pack);
    const db = openContextDb(join(before.paths.ctxDir, 'check.db'));
    try {
      for (const c of before.pack.chunks) expect(getContext(db, c.id)?.id).toBe(c.id);
    } finally {
      db.close();
      rmSync(join(before.paths.ctxDir, 'check.db'));
    }
  });
});

describe('search stemming', () => {
  it('finds "hanging" for "hangs", ranking exact forms first', () => {
    writeFileSync(
      join(root, 'seg', 'guide.md'),
      '# Guide\n\nThe build was hanging on startup.\n\n## Hangs\n\nWhen it hangs, kill it.\n',
    );
    const built = writeContextPack({ repoRoot: root, segment: 'seg' });
    const db = openContextDb(built.paths.dbPath);
    try {
      const hits = searchContext(db, 'hangs').hits;
      expect(hits.map((h) => h.title_path.at(-1))).toEqual(['Hangs', 'Guide']);
      expect(searchContext(db, 'hanging').hits.length).toBe(2);
      expect(searchContext(db, 'hangs', 1e15).hits.length).toBe(2);
    } finally {
      db.close();
    }
  });
});

describe('Trifecta segments', () => {
  it('packs _ctx/prime_*, agent_* and session_* docs, and --include "_ctx/*.md" adds _ctx docs', () => {
    const seg = join(root, 'tri');
    mkdirSync(join(seg, '_ctx'), { recursive: true });
    writeFileSync(join(seg, 'skill.md'), '# Skill\n\nRules.\n');
    writeFileSync(join(seg, '_ctx', 'prime_tri.md'), '# Prime\n\nRead these first.\n');
    writeFileSync(join(seg, '_ctx', 'agent_tri.md'), '# Agent\n\nStack.\n');
    writeFileSync(join(seg, '_ctx', 'session_tri.md'), '# Session\n\nLog.\n');
    writeFileSync(join(seg, '_ctx', 'notes.md'), '# Notes\n\nScratch.\n');
    const result = writeContextPack({ repoRoot: root, segment: 'tri' });
    expect(result.pack.docs.map((d) => d.file)).toEqual([
      '_ctx/agent_tri.md',
      '_ctx/prime_tri.md',
      '_ctx/session_tri.md',
      'skill.md',
    ]);
    const plain = join(root, 'plain');
    mkdirSync(join(plain, '_ctx'), { recursive: true });
    writeFileSync(join(plain, 'readme.md'), '# Readme\n\nx\n');
    writeFileSync(join(plain, '_ctx', 'extra.md'), '# Extra\n\ny\n');
    expect(writeContextPack({ repoRoot: root, segment: 'plain' }).pack.docs.map((d) => d.file)).toEqual(['readme.md']);
    const withCtx = writeContextPack({ repoRoot: root, segment: 'plain', include: ['**/*.md', '_ctx/*.md'] });
    expect(withCtx.pack.docs.map((d) => d.file)).toEqual(['_ctx/extra.md', 'readme.md']);
  });
});
