// End-to-end: ingest through the worker thread (STRATA_INGEST_WORKER=1) stores exactly what the
// inline path stores — rows, full-text index, report counts — for full and appended ingests, and
// secrets are redacted before they reach the store on both paths.
import { describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURES, runCli, tempDir } from './support/cli.js';
import { rebuildAllSessionStats } from '../src/store/session-stats.js';

const CLAUDE = join(FIXTURES, 'claude-code');
const SECRET = 'sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm';

async function ingest(
  home: string,
  src: string,
  worker: '0' | '1',
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await runCli(['ingest', src, '--json'], { STRATA_HOME: home, STRATA_INGEST_WORKER: worker, ...env });
  expect(res.code, res.stderr).toBe(0);
  const { durationMs: _d, mbPerSec: _m, ...report } = JSON.parse(res.stdout) as Record<string, unknown>;
  return report;
}

/** Runs `each` over `items` one after another (ingests into separate stores, in a fixed order). */
async function sequential<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await each(item));
  return out;
}

function storeDump(home: string): { rows: string; fts: number[]; counts: number[] } {
  const db = new Database(join(home, 'strata.db'), { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT s.external_id, s.title, s.message_count, m.key, m.seq, m.kind, m.meta, b.idx, b.kind AS bk,
        b.field, b.text, b.tool_input, b.meta AS bm
        FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id ORDER BY
          s.external_id, m.seq, b.idx`)
      .all();
    const fts = ['the', 'error', 'function', 'Session'].map(
      (q) => (db.prepare('SELECT COUNT(*) AS n FROM blocks_fts WHERE blocks_fts MATCH ?').get(q) as { n: number }).n,
    );
    const counts = ['sessions', 'messages', 'blocks', 'usage'].map(
      (t) => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n,
    );
    return { rows: JSON.stringify(rows), fts, counts };
  } finally {
    db.close();
  }
}

/** These columns of every `sources` row of the store in `home`, by path. */
function sourceRows(home: string, columns: string): unknown[] {
  const db = new Database(join(home, 'strata.db'), { readonly: true });
  try {
    return db.prepare(`SELECT ${columns} FROM sources ORDER BY path`).all();
  } finally {
    db.close();
  }
}

describe('ingest worker thread', () => {
  it('stores the Claude Code fixtures exactly as the inline path does', async () => {
    const inline = tempDir();
    const worker = tempDir();
    const a = await ingest(inline, CLAUDE, '0');
    const b = await ingest(worker, CLAUDE, '1');
    expect(b).toEqual(a);
    const dumpA = storeDump(inline);
    const dumpB = storeDump(worker);
    expect(dumpB.counts).toEqual(dumpA.counts);
    expect(dumpB.fts).toEqual(dumpA.fts);
    expect(dumpB.fts[0]).toBeGreaterThan(0);
    expect(dumpB.rows === dumpA.rows).toBe(true);
  });

  it('appends new lines and redacts their secrets identically on both paths', async () => {
    const src = tempDir();
    const file = join(src, 'conversation.jsonl');
    copyFileSync(join(CLAUDE, 'obra-episodic-memory', 'long-conversation.jsonl'), file);
    const homes = { '0': tempDir(), '1': tempDir() } as const;
    for (const mode of ['0', '1'] as const) await ingest(homes[mode], src, mode);
    const line = JSON.stringify({
      type: 'user',
      sessionId: 'appended-session',
      uuid: '7f0c2a8e-0000-4000-8000-000000000001',
      timestamp: '2025-06-01T10:00:00.000Z',
      cwd: '/work/app',
      message: { role: 'user', content: `use ANTHROPIC_API_KEY=${SECRET} for the deploySession step` },
    });
    appendFileSync(file, `${line}\n`);
    const reports = [await ingest(homes['0'], src, '0'), await ingest(homes['1'], src, '1')];
    expect(reports[1]).toEqual(reports[0]);
    expect(reports[1]!.messagesAdded).toBe(1);
    expect(reports[1]!.redactions).toBeGreaterThanOrEqual(1);
    const dumps = (['0', '1'] as const).map((mode) => storeDump(homes[mode]));
    expect(dumps[1]!.rows === dumps[0]!.rows).toBe(true);
    expect(dumps[1]!.rows).not.toContain(SECRET);
    expect(dumps[1]!.rows).toContain('[REDACTED:');
  });

  it(
    'reads files of many chunks, a last line without its newline and an incomplete one as the inline path does, ' +
      'with the same prefix hashes',
    async () => {
      const src = tempDir();
      const userLine = (n: number, words: number) =>
        JSON.stringify({
          parentUuid: null,
          type: 'user',
          sessionId: 'chunked-session',
          uuid: `7f0c2a8e-0000-4000-8000-${String(n).padStart(12, '0')}`,
          timestamp: '2025-06-01T10:00:00.000Z',
          cwd: '/work/app',
          message: { role: 'user', content: `line ${n} ${'chunkword '.repeat(words)}` },
        });
      // ~6 MB: lines up to ~500 KB cross the 1 MB chunks and wrap the 2 MB read-ahead ring several times.
      const lines = Array.from({ length: 60 }, (_, n) => userLine(n, (n * 7919) % 50_000));
      writeFileSync(join(src, 'big.jsonl'), `${lines.join('\n')}\n`);
      const few = (from: number) => [0, 1, 2].map((n) => userLine(from + n, 4000)).join('\n');
      writeFileSync(join(src, 'no-final-newline.jsonl'), few(1000));
      const partial = userLine(3000, 5);
      writeFileSync(join(src, 'partial.jsonl'), `${few(2000)}\n${partial.slice(0, 40)}`);
      // The worker path twice: the read-ahead thread prefetching the files ahead (as from a slow disk) or not.
      const paths = [
        { home: tempDir(), mode: '0', env: {} },
        { home: tempDir(), mode: '1', env: { STRATA_INGEST_PREFETCH: '0' } },
        { home: tempDir(), mode: '1', env: { STRATA_INGEST_PREFETCH: '1' } },
      ] as const;
      const sources = (home: string) => sourceRows(home, 'path, size, offset, lines, prefix_hash, status');
      const run = async () => {
        const out: Record<string, unknown>[] = [];
        for (const p of paths) out.push(await ingest(p.home, src, p.mode, p.env));
        return out;
      };
      const reports = await run();
      expect(reports[0]!.messagesAdded).toBe(60 + 3 + 3);
      for (const [i, p] of paths.entries()) {
        expect(reports[i]).toEqual(reports[0]);
        expect(sources(p.home)).toEqual(sources(paths[0].home));
        expect(storeDump(p.home).rows === storeDump(paths[0].home).rows).toBe(true);
      }
      // Completing the partial line is an append on every path: the stored prefix hash matched.
      appendFileSync(join(src, 'partial.jsonl'), `${partial.slice(40)}\n`);
      const appended = await run();
      expect(appended[0]!.messagesAdded).toBe(1);
      expect(appended[0]!.filesRewritten).toBe(0);
      for (const [i, p] of paths.entries()) {
        expect(appended[i]).toEqual(appended[0]);
        expect(sources(p.home)).toEqual(sources(paths[0].home));
      }
    },
  );

  it('ingests a folder of copies through the worker and skips them all on the next run', async () => {
    const src = tempDir();
    cpSync(join(CLAUDE, 'obra-episodic-memory'), src, { recursive: true });
    const home = tempDir();
    const first = await ingest(home, src, '1');
    expect(first.filesFailed).toBe(0);
    expect(first.filesIngested).toBeGreaterThan(0);
    const second = await ingest(home, src, '1');
    expect(second.filesIngested).toBe(0);
    expect(second.bytesRead).toBe(0);
    const db = new Database(join(home, 'strata.db'), { readonly: true });
    // The bulk ingest's larger full-text merge steps and segments are set back once it ends.
    expect(db.prepare("SELECT v FROM blocks_fts_config WHERE k = 'automerge'").pluck().get()).toBe(8);
    expect(db.prepare("SELECT v FROM blocks_fts_config WHERE k = 'hashsize'").pluck().get()).toBe(1024 * 1024);
    db.close();
  });

  it('reports a binary file named .jsonl as the inline path does, reading it once (in the worker)', async () => {
    // Under a Claude Code root, where every .jsonl is taken as a transcript without its head being read.
    const root = tempDir();
    const src = join(root, 'projects', '-work-app');
    mkdirSync(src, { recursive: true });
    copyFileSync(join(CLAUDE, 'obra-episodic-memory', 'long-conversation.jsonl'), join(src, 'a.jsonl'));
    writeFileSync(
      join(src, 'binary.jsonl'),
      Buffer.concat([
        Buffer.from('{"type":"user"}\n'),
        Buffer.from([0x89, 0x50, 0, 0, 13, 10]),
        Buffer.alloc(3000, 65),
      ]),
    );
    // Past its first KB a NUL byte does not make a file binary: a line with one inside is malformed.
    writeFileSync(
      join(src, 'late-nul.jsonl'),
      Buffer.concat([Buffer.from('{"type":"summary","summary":"x"}\n'.repeat(40)), Buffer.from([123, 0, 125, 10])]),
    );
    const homes = { '0': tempDir(), '1': tempDir() } as const;
    const reports = await sequential(['0', '1'] as const, async (mode) => {
      const res = await runCli(['ingest', '--json'], {
        STRATA_HOME: homes[mode],
        HOME: tempDir(),
        CLAUDE_CONFIG_DIR: root,
        STRATA_INGEST_WORKER: mode,
      });
      expect(res.code, res.stderr).toBe(0);
      const { durationMs: _d, mbPerSec: _m, ...report } = JSON.parse(res.stdout) as Record<string, unknown>;
      return report;
    });
    expect(reports[1]).toEqual(reports[0]);
    expect(reports[0]!.problems).toEqual([
      { path: join(src, 'binary.jsonl'), reason: 'binary file (contains NUL bytes); not an agent history' },
    ]);
    expect(reports[0]!.malformedLines).toBe(1);
    const sources = (home: string) => sourceRows(home, 'path, status, status_reason, offset');
    expect(sources(homes['1'])).toEqual(sources(homes['0']));
    expect(sources(homes['1'])).toContainEqual({
      path: join(src, 'binary.jsonl'),
      status: 'error',
      status_reason: 'binary file (contains NUL bytes); not an agent history',
      offset: 0,
    });
  });

  it(
    'stores the session statistics that reading every session ' + 'back computes (calls counted by the worker)',
    async () => {
      const home = tempDir();
      for (const agent of ['claude-code', 'codex']) await ingest(home, join(FIXTURES, agent), '1');
      const db = new Database(join(home, 'strata.db'));
      try {
        const stats = () => db.prepare('SELECT * FROM session_stats ORDER BY session_id').all();
        const atIngest = stats();
        expect(atIngest.length).toBeGreaterThan(10);
        expect(atIngest.some((row) => (row as { lines_added: number }).lines_added > 0)).toBe(true);
        expect(atIngest.some((row) => (row as { bash_calls: number }).bash_calls > 0)).toBe(true);
        rebuildAllSessionStats(db);
        expect(stats()).toEqual(atIngest);
      } finally {
        db.close();
      }
    },
  );

  it('keeps those statistics exact across appends, a rewritten file and a session written by two files', async () => {
    const src = tempDir();
    cpSync(join(CLAUDE, 'obra-episodic-memory'), src, { recursive: true });
    const home = tempDir();
    const stats = (db: Database.Database) => db.prepare('SELECT * FROM session_stats ORDER BY session_id').all();
    const recomputed = () => {
      const db = new Database(join(home, 'strata.db'));
      try {
        const atIngest = stats(db);
        rebuildAllSessionStats(db);
        return { atIngest, readBack: stats(db) };
      } finally {
        db.close();
      }
    };
    await ingest(home, src, '1');
    const file = join(src, 'long-conversation.jsonl');
    const sessionId = '9a9eadc8-c1f1-493e-a0f1-884aa996b05b';
    const record = (uuid: string, name: string, input: Record<string, string>) =>
      JSON.stringify({
        type: 'assistant',
        sessionId,
        uuid,
        timestamp: '2025-10-09T10:00:00.000Z',
        cwd: '/w',
        message: {
          id: `msg_${uuid}`,
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'tool_use', id: `toolu_${uuid}`, name, input }],
        },
      });
    // Appended calls in a session stored by an earlier run.
    appendFileSync(
      file,
      `${record('a1', 'Bash', {
        command: 'git add . && git commit -m ' + '"x"',
      })}\n${record('a2', 'Edit', { file_path: 'constructor', old_string: 'a', new_string: 'b\nc' })}\n`,
    );
    // The same session continued in a second file of this run.
    writeFileSync(
      join(src, 'continued.jsonl'),
      `${record('b1', 'Write', { file_path: '/w/new.ts', content: 'one\ntwo\nthree' })}\n`,
    );
    await ingest(home, src, '1');
    let check = recomputed();
    expect(check.atIngest).toEqual(check.readBack);
    expect(check.atIngest.some((row) => (row as { commits: number }).commits > 0)).toBe(true);
    expect(JSON.stringify(check.atIngest)).toContain('constructor');
    // A rewritten file: its messages are deleted and stored again.
    const lines = readFileSync(join(src, 'medium-conversation.jsonl'), 'utf8').split('\n');
    writeFileSync(
      join(src, 'medium-conversation.jsonl'),
      lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n',
    );
    await ingest(home, src, '1');
    check = recomputed();
    expect(check.atIngest).toEqual(check.readBack);
  });
});
