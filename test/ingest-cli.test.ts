import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURES, holdLock, runCli, spawnCli, tempDir } from './support/cli.js';

const CLAUDE = join(FIXTURES, 'claude-code');

function countRows(dbPath: string, sql: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('strata ingest (end to end)', () => {
  it('ingests the Claude Code fixtures, then skips them all on a second run', async () => {
    const home = tempDir();
    const first = await runCli(['ingest', CLAUDE, '--json'], { STRATA_HOME: home });
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.filesFailed).toBe(0);
    expect(report.filesIngested).toBeGreaterThan(20);
    const second = JSON.parse((await runCli(['ingest', CLAUDE, '--json'], { STRATA_HOME: home })).stdout);
    expect(second.filesIngested).toBe(0);
    expect(second.filesSkipped).toBe(report.filesIngested + 1); // + the prompt log, known as not a session
    expect(second.messagesAdded).toBe(0);
    expect(second.bytesRead).toBe(0);
  });

  it('reports a PATH that does not exist as a usage error naming it', async () => {
    const home = tempDir();
    const res = await runCli(['ingest', '/nonexistent/strata-xyz.jsonl'], { STRATA_HOME: home });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('/nonexistent/strata-xyz.jsonl');
    expect(res.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('reports an unreadable file with its path and still ingests the others', async () => {
    const home = tempDir();
    const src = tempDir();
    chmodSync(home, 0o777);
    chmodSync(src, 0o777);
    const small = join(CLAUDE, 'obra-episodic-memory', 'short-conversation.jsonl');
    copyFileSync(small, join(src, 'readable.jsonl'));
    copyFileSync(join(CLAUDE, 'obra-episodic-memory', 'tiny-conversation.jsonl'), join(src, 'secret.jsonl'));
    chmodSync(join(src, 'readable.jsonl'), 0o644);
    chmodSync(join(src, 'secret.jsonl'), 0o000);
    // As root, permissions are not enforced: run the CLI as `nobody` then.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const res = await runCli(['ingest', src, '--json'], { STRATA_HOME: home, HOME: home }, asNobody);
    expect(res.stderr).toBe('');
    const report = JSON.parse(res.stdout);
    expect(report.filesIngested).toBe(1);
    expect(report.problems.map((p: { path: string; reason: string }) => `${p.path}: ${p.reason}`).join('\n')).toMatch(
      /secret\.jsonl: .*(EACCES|permission)/i,
    );
  });

  it("stores each Claude Code tool input once (tool_input = '' when its JSON is the block text)", async () => {
    const home = tempDir();
    expect((await runCli(['ingest', CLAUDE], { STRATA_HOME: home })).code).toBe(0);
    const db = new Database(join(home, 'strata.db'), { readonly: true });
    try {
      const count = (sql: string) => db.prepare(sql).pluck().get() as number;
      expect(count("SELECT COUNT(*) FROM blocks WHERE kind = 'tool_call' AND tool_input = ''")).toBeGreaterThan(100);
      expect(count("SELECT COUNT(*) FROM blocks WHERE kind = 'tool_call' AND tool_input = text")).toBe(0);
    } finally {
      db.close();
    }
  });

  it('refuses a store written by a newer strata and leaves it untouched', async () => {
    const home = tempDir();
    const dbPath = join(home, 'strata.db');
    const db = new Database(dbPath);
    db.pragma('user_version = 999');
    db.close();
    const before = statSync(dbPath).mtimeMs;
    const res = await runCli(['ingest', CLAUDE], { STRATA_HOME: home });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/schema version 999.*newer/);
    expect(statSync(dbPath).mtimeMs).toBe(before);
  });

  it('refuses a corrupted store file and never overwrites it', async () => {
    const home = tempDir();
    const dbPath = join(home, 'strata.db');
    writeFileSync(dbPath, 'this is not a database at all, just text'.repeat(100));
    const res = await runCli(['stats'], { STRATA_HOME: home });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/not a SQLite database/);
    expect(statSync(dbPath).size).toBe(4000);
  });

  it('makes a second writer wait for the first, then fail clearly naming the holder', async () => {
    const home = tempDir();
    mkdirSync(home, { recursive: true });
    // A live process holds the lock.
    const holder = await holdLock(join(home, 'strata.db.lock'), 'strata ingest (test holder)');
    try {
      const res = await runCli(['ingest', join(CLAUDE, 'obra-episodic-memory')], {
        STRATA_HOME: home,
        STRATA_LOCK_TIMEOUT_MS: '600',
      });
      expect(res.code).toBe(3);
      expect(res.stderr).toContain(`pid ${holder.pid}`);
      expect(res.stderr).toContain('test holder');
      // Readers are never blocked.
      expect((await runCli(['stats'], { STRATA_HOME: home })).code).toBe(0);
    } finally {
      await holder.stop();
    }
  });

  it('survives SIGKILL mid-ingest: the store passes integrity_check and a re-run equals a clean run', async () => {
    const src = tempDir();
    cpSync(CLAUDE, src, { recursive: true });
    // Make the run long enough to be killed midway: several copies of the large fixtures.
    for (let i = 0; i < 12; i++) {
      for (const name of ['large-conversation.jsonl', 'long-conversation.jsonl']) {
        const text = (await import('node:fs')).readFileSync(join(CLAUDE, 'obra-episodic-memory', name), 'utf8');
        writeFileSync(
          join(src, `copy-${i}-${name}`),
          text.replaceAll(/"sessionId":"[^"]+"/g, `"sessionId":"copy-${i}-${name}"`),
        );
      }
    }
    const killedHome = tempDir();
    const child = spawnCli(['ingest', src], { STRATA_HOME: killedHome }, { stdio: 'ignore' });
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const files = readdirSync(killedHome);
        const wal = files.includes('strata.db-wal') ? statSync(join(killedHome, 'strata.db-wal')).size : 0;
        if (wal > 512 * 1024) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 5);
      child.on('exit', () => {
        clearInterval(timer);
        resolve();
      });
    });
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.on('exit', r));
    expect(child.signalCode).toBe('SIGKILL');
    const rerun = await runCli(['ingest', src, '--json'], { STRATA_HOME: killedHome, STRATA_LOCK_TIMEOUT_MS: '5000' });
    expect(rerun.code).toBe(0);
    const cleanHome = tempDir();
    expect((await runCli(['ingest', src], { STRATA_HOME: cleanHome })).code).toBe(0);
    const db = new Database(join(killedHome, 'strata.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    for (const table of ['sessions', 'messages', 'blocks', 'usage']) {
      expect(countRows(join(killedHome, 'strata.db'), `SELECT COUNT(*) n FROM ${table}`)).toBe(
        countRows(join(cleanHome, 'strata.db'), `SELECT COUNT(*) n FROM ${table}`),
      );
    }
    // The full-text index too: whatever the killed run stored without indexing, the re-run indexed.
    for (const term of ['the', 'error', 'Session']) {
      const sql = `SELECT COUNT(*) n FROM blocks_fts WHERE blocks_fts MATCH '${term}'`;
      expect(countRows(join(killedHome, 'strata.db'), sql)).toBe(countRows(join(cleanHome, 'strata.db'), sql));
    }
    expect(
      countRows(
        join(killedHome, 'strata.db'),
        'SELECT COUNT(*) n FROM blocks WHERE id > (SELECT indexed_through FROM fts_state)',
      ),
    ).toBe(0);
  });
});

describe('re-entrancy guard', () => {
  it('refuses to ingest inside a strata LLM sub-call (hooks started by a claude -p child)', async () => {
    const home = tempDir();
    const res = await runCli(['ingest', CLAUDE], { STRATA_HOME: home, STRATA_SUBCALL: '1' });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/refusing to run strata ingest inside a strata LLM sub-call/);
  });
});
