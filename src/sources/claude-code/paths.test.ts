// Roots, discovery and detection of Claude Code files, on the real fixture trees and temp folders.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeCodeAdapter } from './index.js';

const REAL = resolve(process.cwd(), '../shared/fixtures/real');
const CC = join(REAL, 'claude-code');

function walk(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : [],
  );
}
const head = (path: string): string => readFileSync(path).subarray(0, 4096).toString('utf8');

describe('claude-code roots and discovery', () => {
  it('lists CLAUDE_CONFIG_DIR first, then ~/.claude and ~/.config/claude', () => {
    expect(claudeCodeAdapter.defaultRoots({ HOME: '/h' })).toEqual([
      '/h/.claude/projects',
      '/h/.config/claude/projects',
    ]);
    expect(claudeCodeAdapter.defaultRoots({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c1,/c2' })).toEqual([
      '/c1/projects',
      '/c2/projects',
      '/h/.claude/projects',
      '/h/.config/claude/projects',
    ]);
  });

  it('finds sessions and both subagent layouts, skipping sessions-index.json', () => {
    const system = claudeCodeAdapter
      .discover(join(CC, 'vps-system/projects'))
      .map((f) => relative(join(CC, 'vps-system/projects'), f));
    expect(system).toEqual([
      '-home-ken-github/f02a98c9-b490-4e35-9f43-293fd40c5686.jsonl',
      '-home-ken-next-mavens-flow/0c4091f0-060f-4af0-8df1-c18d15dd7487.jsonl',
      '-home-ken-next-mavens-flow/0c4091f0-060f-4af0-8df1-c18d15dd7487/subagents/agent-aprompt_suggestion-7c77e3.jsonl',
      '-home-ken-next-mavens-flow/eb3fff50-8602-4007-9d57-c59c2da9cc9f/subagents/agent-ad82874.jsonl',
    ]);
    expect(claudeCodeAdapter.discover(join(CC, 'omarchy-backup/projects'))).toHaveLength(13);
    expect(claudeCodeAdapter.discover(join(CC, 'does-not-exist'))).toEqual([]);
  });

  const tmp = mkdtempSync(join(tmpdir(), 'strata-cc-disc-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('skips tool-results folders, the prompt log and directory symlinks', () => {
    const slug = join(tmp, 'projects', '-w');
    mkdirSync(join(slug, 'sid', 'tool-results'), { recursive: true });
    mkdirSync(join(slug, 'sid', 'subagents'), { recursive: true });
    writeFileSync(join(slug, 'sid.jsonl'), '');
    writeFileSync(join(slug, 'agent-a1.jsonl'), '');
    writeFileSync(join(slug, 'sid', 'subagents', 'agent-a2.jsonl'), '');
    writeFileSync(join(slug, 'sid', 'subagents', 'agent-a2.meta.json'), '{}');
    writeFileSync(join(slug, 'sid', 'tool-results', 'toolu_1.jsonl'), '');
    writeFileSync(join(slug, 'sessions-index.json'), '{}');
    writeFileSync(join(tmp, 'projects', 'history.jsonl'), '');
    symlinkSync(slug, join(tmp, 'projects', 'loop'));
    expect(claudeCodeAdapter.discover(join(tmp, 'projects')).map((f) => relative(join(tmp, 'projects'), f))).toEqual([
      '-w/agent-a1.jsonl',
      '-w/sid.jsonl',
      '-w/sid/subagents/agent-a2.jsonl',
    ]);
  });
});

describe('claude-code detection', () => {
  it('claims every Claude Code fixture, including the prompt log', () => {
    const files = walk(CC, /\.jsonl$/);
    expect(files.length).toBe(30);
    for (const file of files) expect([file, claudeCodeAdapter.detect(file, head(file))]).toEqual([file, true]);
  });

  it("rejects other agents' files and non-jsonl names", () => {
    const others = [
      ...walk(join(REAL, 'codex'), /\.jsonl?$/),
      ...walk(join(REAL, 'gemini'), /\.jsonl?$/),
      ...walk(join(REAL, 'puffin'), /\.json$/),
    ];
    expect(others.length).toBeGreaterThan(5);
    for (const file of others) expect([file, claudeCodeAdapter.detect(file, head(file))]).toEqual([file, false]);
    const cc = join(CC, 'obra-episodic-memory/tiny-conversation.jsonl');
    expect(claudeCodeAdapter.detect(cc.replace(/\.jsonl$/, '.json'), head(cc))).toBe(false);
  });

  it('recognises a head whose first line is longer than the head, and rejects binary or empty heads', () => {
    const longFirst = JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type: 'user',
      message: { content: 'x'.repeat(10000) },
    });
    expect(claudeCodeAdapter.detect('/x/s.jsonl', longFirst.slice(0, 4096))).toBe(true);
    // Without parentUuid (an exported transcript): type, sessionId and message before the cut.
    const bare = JSON.stringify({
      type: 'user',
      sessionId: 's1',
      message: { role: 'user', content: 'x'.repeat(9000) },
    });
    expect(claudeCodeAdapter.detect('/x/s.jsonl', bare.slice(0, 4096))).toBe(true);
    expect(claudeCodeAdapter.detect('/x/s.jsonl', '\u0000\u0001\u00ff\ufffd{{{')).toBe(false);
    expect(claudeCodeAdapter.detect('/x/s.jsonl', '')).toBe(false);
    expect(claudeCodeAdapter.detect('/x/s.jsonl', '{"type":"user","content":"gemini-like, no session id"}\n')).toBe(
      false,
    );
  });
});
