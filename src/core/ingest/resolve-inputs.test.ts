import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ADAPTERS } from '../../sources/registry.js';
import { findFiles } from '../../sources/find-files.js';
import { detectAll, resolveInputs, type KnownFile } from './resolve-inputs.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-resolve-'));
  mkdirSync(join(dir, 'in'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const known = (path: string, agent: string, change: Partial<KnownFile> = {}): Map<string, KnownFile> => {
  const stat = statSync(path);
  return new Map([[path, { agent, size: stat.size, mtime_ms: stat.mtimeMs, ...change }]]);
};

describe('resolveInputs with files the store already holds', () => {
  it('keeps the remembered agent of an unchanged file without detecting it again', async () => {
    // Text no adapter detects: only the store's memory can claim it.
    const file = join(dir, 'in', 'notes.jsonl');
    writeFileSync(file, 'not an agent history\n');
    const fresh = await resolveInputs([join(dir, 'in')], ADAPTERS, {}, dir);
    expect(fresh.files).toEqual([]);
    expect(fresh.unclaimed.map((u) => u.path)).toEqual([file]);

    const unchanged = await resolveInputs([join(dir, 'in')], ADAPTERS, {}, dir, known(file, 'claude-code'));
    expect(unchanged.files.map((f) => [f.path, f.adapter.agent])).toEqual([[file, 'claude-code']]);
    const single = await resolveInputs([file], ADAPTERS, {}, dir, known(file, 'claude-code'));
    expect(single.files.map((f) => f.adapter.agent)).toEqual(['claude-code']);
  });

  it('detects a file again once its size or modification time changed', async () => {
    const file = join(dir, 'in', 'notes.jsonl');
    writeFileSync(file, 'not an agent history\n');
    for (const change of [{ size: 1 }, { mtime_ms: 1 }]) {
      const res = await resolveInputs([join(dir, 'in')], ADAPTERS, {}, dir, known(file, 'claude-code', change));
      expect(res.files).toEqual([]);
      expect(res.unclaimed.map((u) => u.path)).toEqual([file]);
    }
  });
});

describe('detectAll', () => {
  it('reads each head once and keeps the verdicts: the agents that claim it, or why it cannot be read', async () => {
    const file = join(dir, 'in', 'a.txt');
    writeFileSync(file, 'x');
    const verdicts = await detectAll([file, join(dir, 'missing'), join(dir, 'in')], ADAPTERS);
    expect(verdicts.get(file)).toEqual({ agents: [] });
    expect(verdicts.get(join(dir, 'missing'))).toEqual({ unreadable: expect.stringMatching(/^cannot read: .*ENOENT/) });
    expect(verdicts.get(join(dir, 'in'))).toEqual({
      unreadable: expect.stringMatching(/^cannot read: .*(EISDIR|not a regular file \(folder\))/),
    });
  });

  it('gives the same verdicts whether heads are read one by one or concurrently (after a slow read)', async () => {
    const files = [
      ...findFiles(FIXTURES, { maxDepth: Number.POSITIVE_INFINITY, match: () => true }),
      join(dir, 'missing'),
      join(dir, 'in'),
    ];
    expect(files.length).toBeGreaterThan(20);
    const oneByOne = await detectAll(files, ADAPTERS, 4096, Number.POSITIVE_INFINITY);
    const concurrent = await detectAll(files, ADAPTERS, 4096, -1); // every read counts as slow: all but the first
    // few run concurrently
    expect(concurrent).toEqual(oneByOne);
    expect([...oneByOne.values()].filter((v) => 'agents' in v && v.agents.length > 0).length).toBeGreaterThan(10);
  });
});

describe('resolveInputs when a remembered file cannot be examined', () => {
  it('reports a file it cannot stat or read as unreadable and still resolves the others', async () => {
    const loop = join(dir, 'in', 'opencode.db'); // OpenCode discovers it by name; stat fails with ELOOP
    symlinkSync(loop, loop);
    const other = join(dir, 'in', 'notes.jsonl');
    writeFileSync(other, 'not an agent history\n');
    const res = await resolveInputs(
      [join(dir, 'in')],
      ADAPTERS,
      {},
      dir,
      new Map([[loop, { agent: 'opencode', size: 1, mtime_ms: 1 }]]),
    );
    expect(res.unreadable.map((u) => [u.path, u.reason.match(/ELOOP/)?.[0]])).toEqual([[loop, 'ELOOP']]);
    expect(res.unclaimed.map((u) => u.path)).toEqual([other]);
  });

  it('detects a file again when its remembered agent is not among the adapters asked (--agent)', async () => {
    const file = join(dir, 'in', 'notes.jsonl');
    writeFileSync(file, 'not an agent history\n');
    const codexOnly = ADAPTERS.filter((a) => a.agent === 'codex');
    const res = await resolveInputs([join(dir, 'in')], codexOnly, {}, dir, known(file, 'claude-code'));
    expect(res.files).toEqual([]);
    expect(res.unclaimed.map((u) => u.path)).toEqual([file]);
  });
});

describe('resolveInputs: one file reached under two paths is one source', () => {
  const transcript =
    JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u1', message: { role: 'user', content: 'hi' } }) + '\n';

  it('keeps one path for a folder named twice through a symlink, and for a hard link', async () => {
    mkdirSync(join(dir, 'in', 'p'));
    const file = join(dir, 'in', 'p', '0b4e1d1c-1111-4222-8333-944455556666.jsonl');
    writeFileSync(file, transcript);
    symlinkSync(join(dir, 'in'), join(dir, 'link'));
    linkSync(file, join(dir, 'in', 'p', 'hard-link.jsonl'));
    const inputs = await resolveInputs([join(dir, 'in'), join(dir, 'link')], ADAPTERS, {}, dir);
    expect(inputs.files.map((f) => f.path)).toEqual([file]);
  });

  it('prefers the path the store already knows the file by', async () => {
    const file = join(dir, 'in', '0b4e1d1c-1111-4222-8333-944455556666.jsonl');
    writeFileSync(file, transcript);
    symlinkSync(join(dir, 'in'), join(dir, 'link'));
    const linked = join(dir, 'link', '0b4e1d1c-1111-4222-8333-944455556666.jsonl');
    const inputs = await resolveInputs(
      [join(dir, 'in'), join(dir, 'link')],
      ADAPTERS,
      {},
      dir,
      known(linked, 'claude-code'),
    );
    expect(inputs.files.map((f) => f.path)).toEqual([linked]);
  });
});

describe('resolveInputs never waits on, nor silently passes over, what is not a regular file', () => {
  it('reports a FIFO named as a PATH, and FIFOs, symlinks and non-UTF-8 names in a folder, with reasons', async () => {
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo, join(dir, 'in', 'inner-pipe.jsonl')]);
    symlinkSync('/etc/passwd', join(dir, 'in', 'link.jsonl'));
    writeFileSync(Buffer.from(join(dir, 'in', 'bad-\xff.jsonl'), 'latin1'), '{}\n');
    const res = await resolveInputs([fifo, join(dir, 'in')], ADAPTERS, {}, dir);
    const reasons = new Map(res.unreadable.map((u) => [u.path.replace(dir, ''), u.reason]));
    expect(reasons.get('/pipe.jsonl')).toMatch(/not a regular file \(FIFO\)/);
    expect(reasons.get('/in/inner-pipe.jsonl')).toMatch(/not a regular file \(FIFO\)/);
    expect(reasons.get('/in/link.jsonl')).toMatch(/symbolic link/);
    expect([...reasons.entries()].find(([p]) => p.startsWith('/in/bad-'))?.[1]).toMatch(/not valid UTF-8/);
    expect(res.files).toEqual([]);
  });

  // Root reads every folder; as another user a folder without permissions must be reported.
  it.skipIf(process.getuid?.() === 0)('reports a folder it cannot read', () => {
    const locked = join(dir, 'in', 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0);
    const reasons: string[] = [];
    findFiles(join(dir, 'in'), { maxDepth: 5, match: () => true, onSkipped: (p, r) => reasons.push(`${p}: ${r}`) });
    chmodSync(locked, 0o755);
    expect(reasons).toEqual([`${locked}: cannot read folder: EACCES`]);
  });
});
