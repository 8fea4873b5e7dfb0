// Integration tests of the history index pipeline: real Puffin fixtures, Claude Code fixtures ingested
// into a temp store, schema validation of the output, the missing-file rule and the output lock.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { acquireLock } from '../../shared/file-lock.js';
import { generateHistoryIndex, IndexSerializer, MarkerExtractor } from './index.js';
import { tempDir } from '../../../test/support/paths.js';
import { CLAUDE_FIXTURES, countingRunner, PUFFIN_FIXTURES } from '../../../test/support/history-index-fixtures.js';

describe('history index pipeline', () => {
  for (const fixture of PUFFIN_FIXTURES) {
    it(`indexes the Puffin fixture ${fixture.split('/').slice(-2).join('/')} into a schema-valid index`, async () => {
      const out = join(tempDir(), 'history.index.json');
      const counting = countingRunner();
      const raw = JSON.parse(readFileSync(fixture, 'utf8')) as { branches: Record<string, { prompts: unknown[] }> };
      const rawCount = Object.values(raw.branches).reduce((n, b) => n + b.prompts.length, 0);
      const result = await generateHistoryIndex({
        source: { kind: 'puffin-file', path: fixture },
        outputPath: out,
        runner: counting.runner(),
      });
      expect(result.written).toBe(true);
      expect(result.mode).toBe('full');
      const text = readFileSync(out, 'utf8');
      const index = JSON.parse(text);
      expect(IndexSerializer.validate(index)).toEqual({ valid: true, errors: [] });
      expect(index.statistics.totalPrompts).toBe(rawCount);
      expect(index.segments.length).toBeGreaterThan(0);
      expect(index.statistics.llmCallCount).toBe(index.segments.length);
      expect(counting.calls()).toBe(index.segments.length);
      const covered = index.segments.flatMap((s: { promptIds: string[] }) => s.promptIds);
      expect(new Set(covered).size).toBe(rawCount);
      expect(Object.keys(index.prompts)).toHaveLength(rawCount);
      for (const s of index.segments) {
        expect(s.summary.length).toBeGreaterThan(0);
        expect(s.importanceScore).toBeGreaterThan(0);
        expect(s.importanceScore).toBeLessThanOrEqual(1);
        for (const t of s.topics) expect(index.topicIndex[t]).toContain(s.id);
      }
    });
  }

  it('indexes Claude Code sessions from a store: one branch per session, schema-valid', async () => {
    const dir = tempDir();
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [CLAUDE_FIXTURES], env: { HOME: dir }, lockPath: join(dir, 'ingest.lock') });
      const sessions = store.db
        .prepare(
          "SELECT external_id, prompt_count FROM sessions WHERE agent = 'claude-code' AND relation IS NULL AND " +
            'prompt_count > 0',
        )
        .all() as Array<{ external_id: string; prompt_count: number }>;
      expect(sessions.length).toBeGreaterThan(1);
      const out = join(dir, 'cc.index.json');
      const counting = countingRunner();
      const result = await generateHistoryIndex({
        source: { kind: 'store', store, selection: { sessions: sessions.map((s) => s.external_id) } },
        outputPath: out,
        runner: counting.runner(),
      });
      const index = await IndexSerializer.readIndex(out);
      expect(index).not.toBeNull();
      expect(IndexSerializer.validate(index).valid).toBe(true);
      const branches = new Set(index!.segments.map((s) => s.branchId));
      expect(branches.size).toBe(sessions.length);
      expect(index!.statistics.totalPrompts).toBe(result.stats.promptsProcessed);
      expect(index!.statistics.totalPrompts).toBeGreaterThan(0);
      expect(index!.source?.kind).toBe('store');
      // Unchanged store → quick path, no call.
      counting.reset();
      const again = await generateHistoryIndex({
        source: { kind: 'store', store, selection: { sessions: sessions.map((s) => s.external_id) } },
        outputPath: out,
        runner: counting.runner(),
      });
      expect(again.mode).toBe('unchanged');
      expect(counting.calls()).toBe(0);
    } finally {
      store.close();
    }
  });

  it('a missing history file writes an empty, valid index and warns; an index already there is kept', async () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const result = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: join(dir, 'nope.json') },
      outputPath: join(dir, 'out.json'),
      runner: countingRunner().runner(),
      logger: { info() {}, warn: (l) => warnings.push(l) },
    });
    expect(result.index.segments).toEqual([]);
    expect(result.index.statistics.totalPrompts).toBe(0);
    expect(IndexSerializer.validate(result.index).valid).toBe(true);
    expect(result.written).toBe(true);
    const written = await IndexSerializer.readIndex(join(dir, 'out.json'));
    expect(written && IndexSerializer.validate(written).valid).toBe(true);
    expect(warnings.join('\n')).toMatch(/history file not found/);
    const again = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: join(dir, 'nope.json') },
      outputPath: join(dir, 'out.json'),
      runner: countingRunner().runner(),
    });
    expect(again.written).toBe(false);
  });

  it('a JSON file that is not a Puffin history is a usage error (exit 2), and nothing is written', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ hello: 'world' }));
    await expect(
      generateHistoryIndex({
        source: { kind: 'puffin-file', path: join(dir, 'other.json') },
        outputPath: join(dir, 'out.json'),
        runner: countingRunner().runner(),
      }),
    ).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/is not a Puffin history/) });
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
  });

  it('a second generator on the same output waits, then fails naming the holder', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.json');
    const held = acquireLock(`${out}.lock`, { command: 'strata history-index (first run)' });
    try {
      const started = Date.now();
      await expect(
        generateHistoryIndex({
          source: { kind: 'puffin-file', path: PUFFIN_FIXTURES[0]! },
          outputPath: out,
          runner: countingRunner().runner(),
          lockTimeoutMs: 300,
        }),
      ).rejects.toThrow(new RegExp(`held by pid ${process.pid} .*strata history-index \\(first run\\)`));
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      held.release();
    }
    const after = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: PUFFIN_FIXTURES[0]! },
      outputPath: out,
      runner: countingRunner().runner(),
    });
    expect(after.written).toBe(true);
  });

  it('extracts markers into the index with importance, line numbers and context', async () => {
    const dir = tempDir();
    const history = join(dir, 'history.json');
    writeFileSync(
      history,
      JSON.stringify({
        branches: {
          main: {
            id: 'main',
            prompts: [
              {
                id: 'a',
                parentId: null,
                content: 'line one\nline two\n@/decision: use SQLite for the store\nline four',
                timestamp: 1_700_000_000_000,
                response: { content: 'ok\n@/todo: add a migration test', timestamp: 1_700_000_001_000 },
              },
            ],
          },
        },
      }),
    );
    const result = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: join(dir, 'i.json'),
      runner: countingRunner().runner(),
    });
    expect(result.index.markers).toEqual([
      {
        type: 'decision',
        content: 'use SQLite for the store',
        promptId: 'a',
        sourceField: 'prompt',
        importance: 1,
        lineNumber: 3,
        context: { before: 'line one\nline two', after: 'line four' },
        branchId: 'main',
        timestamp: '2023-11-14T22:13:20.000Z',
      },
      {
        type: 'todo',
        content: 'add a migration test',
        promptId: 'a',
        sourceField: 'response',
        importance: 0.4,
        lineNumber: 2,
        context: { before: 'ok', after: '' },
        branchId: 'main',
        timestamp: '2023-11-14T22:13:20.000Z',
      },
    ]);
    expect(result.stats.markersByType).toEqual({ decision: 1, todo: 1 });
    expect(MarkerExtractor.getDefaultConfig().patterns).toHaveLength(9);
  });
});
