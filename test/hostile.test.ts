// Hostile input generated here (FIFOs, symlinks, deep JSON and paths, BOM, CRLF, escapes, binary, huge line,
// non-UTF-8 name, zeroed pages, bad arguments) through every command of the built CLI: no stack trace, the
// documented exit code, an intact store, nothing lost against a clean run of the ordinary session.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { FIXTURES, runCli as run, tempDir, type CliResult } from './support/cli.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const ORDINARY = join(
  FIXTURES,
  'claude-code',
  'omarchy-backup',
  'projects',
  '-home-vwestberg-Claude',
  '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);
const ORDINARY_ID = '1fb5e404-604d-4a2b-baf1-3beb42a67371';
const HOSTILE_ID = '77777777-2222-3333-4444-555555555555';
const SECRET = 'TOP-SECRET-SIDECAR-VALUE';
const ESC = '\u001b';
/** What a Node stack trace looks like on stderr. */
const STACK = /\n\s+at .+[:(]\d+:\d+\)?|node:internal|Error: .*\n\s+at /;

let root: string;
let project: string;
let home: string;
let cleanHome: string;

async function runCli(
  args: string[],
  env: Record<string, string> = { STRATA_HOME: home, HOME: root },
  options = {},
): Promise<CliResult> {
  // A bound on every run: a hang fails the test instead of stalling the suite.
  const r = await run(args, env, { timeout: 180_000, ...options });
  expect(r.stderr, `${args.join(' ')}: stack trace`).not.toMatch(STACK);
  return r;
}

function line(fields: Record<string, unknown>): string {
  return JSON.stringify({
    sessionId: HOSTILE_ID,
    cwd: '/work/hostile',
    version: '2.1.0',
    timestamp: '2026-02-01T00:00:00.000Z',
    ...fields,
  });
}
function user(uuid: string, content: unknown, extra: Record<string, unknown> = {}): string {
  return line({ type: 'user', uuid, message: { role: 'user', content }, ...extra });
}

/** The hostile session: BOM, CRLF, escapes, deep nesting, sidecars that must not be read, a 3 MB line. */
function hostileSession(): string {
  const deep = '{"a":'.repeat(20_000) + '"bottom"' + '}'.repeat(20_000);
  const persisted = (id: string) =>
    `<persisted-output>\nOutput too large. Full output saved to: ` +
    `/x/${HOSTILE_ID}/tool-results/${id}.txt\nPreview:\nshort\n</persisted-output>`;
  const lines = [
    user('u1', 'hostile first line after a BOM'),
    user('u2', `paste this ${ESC}]52;c;ZXZpbA==\u0007 and clear ${ESC}[2J\u009b31m now`),
    line({
      type: 'assistant',
      uuid: 'a1',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'x',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }],
      },
    }).replace('{"command":"ls"}', deep),
    user('u3', [{ type: 'tool_result', tool_use_id: 't1', content: persisted('toolu_link') }]),
    line({
      type: 'assistant',
      uuid: 'a2',
      message: {
        id: 'm2',
        role: 'assistant',
        model: 'x',
        content: [
          {
            type: 'tool_use',
            id: 't3',
            name: 'Write',
            input: { file_path: `/work/hostile/${'d/'.repeat(20_000)}f.txt`, content: 'x\n' },
          },
        ],
      },
    }),
    user('u4', [{ type: 'tool_result', tool_use_id: 't2', content: persisted('toolu_fifo') }]),
    user('u5', `huge ${'word '.repeat(600_000)}end`),
    user('u6', 'hostile last line'),
  ];
  return '\ufeff' + lines.join('\r\n') + '\r\n';
}

beforeAll(async () => {
  root = tempDir('strata-hostile-');
  home = join(root, 'home');
  cleanHome = join(root, 'clean');
  project = join(root, 'projects', '-work-hostile');
  mkdirSync(join(project, HOSTILE_ID, 'tool-results'), { recursive: true });
  copyFileSync(ORDINARY, join(project, `${ORDINARY_ID}.jsonl`));
  writeFileSync(join(project, `${HOSTILE_ID}.jsonl`), hostileSession());
  writeFileSync(join(root, 'secret.txt'), SECRET);
  symlinkSync(join(root, 'secret.txt'), join(project, HOSTILE_ID, 'tool-results', 'toolu_link.txt'));
  execFileSync('mkfifo', [join(project, HOSTILE_ID, 'tool-results', 'toolu_fifo.txt'), join(project, 'pipe.jsonl')]);
  symlinkSync('/etc/passwd', join(project, 'passwd.jsonl'));
  writeFileSync(join(project, 'binary.jsonl'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
  writeFileSync(
    Buffer.from(join(project, 'name-\xff.jsonl'), 'latin1'),
    user('n1', 'in a file whose name is not UTF-8') + '\n',
  );
  mkdirSync(cleanHome, { recursive: true });
  const clean = await run(['ingest', ORDINARY], { STRATA_HOME: cleanHome, HOME: root });
  expect(clean.code, clean.stderr).toBe(0);
});

function blockTexts(dbPath: string, session: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (
      db
        .prepare(`SELECT m.seq, b.idx, b.text FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s
          ON s.id = m.session_id
      WHERE s.external_id = ? ORDER BY m.seq, b.idx`)
        .all(session) as { text: string }[]
    ).map((r) => r.text);
  } finally {
    db.close();
  }
}

describe('hostile input through every command', () => {
  it(
    'ingest: no hang, each bad file reported with its reason, ' + 'the store intact, nothing lost, no secret read',
    async () => {
      const r = await runCli(['ingest', project]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/pipe\.jsonl: not a regular file \(FIFO\)/);
      expect(r.stderr).toMatch(/passwd\.jsonl: symbolic link/);
      expect(r.stderr).toMatch(/name-.*\.jsonl: its name is not valid UTF-8/);
      const db = new Database(join(home, 'strata.db'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(
          (
            db
              .prepare("SELECT count(*) AS n FROM blocks WHERE text LIKE '%' || ? || '%' OR text LIKE '%root:x:%'")
              .get(SECRET) as { n: number }
          ).n,
        ).toBe(0);
      } finally {
        db.close();
      }
      // Nothing lost: the ordinary session is stored exactly as a clean run stores it.
      expect(blockTexts(join(home, 'strata.db'), ORDINARY_ID)).toEqual(
        blockTexts(join(cleanHome, 'strata.db'), ORDINARY_ID),
      );
      const hostile = blockTexts(join(home, 'strata.db'), HOSTILE_ID);
      expect(hostile[0]).toBe('hostile first line after a BOM');
      expect(hostile.at(-1)).toBe('hostile last line');
      expect(hostile.some((t) => t.includes('"bottom"'))).toBe(true);
      expect(hostile.some((t) => t.startsWith('huge word'))).toBe(true);
      // A re-run changes nothing and reports the same problems.
      const again = await runCli(['ingest', project, '--json']);
      expect(again.code).toBe(0);
      const report = JSON.parse(again.stdout) as {
        notSession: { path: string }[];
        problems: { path: string; reason: string }[];
      };
      expect(report.notSession.map((n) => n.path)).toContain(join(project, 'binary.jsonl'));
      expect(report.problems.find((p) => p.path.endsWith('pipe.jsonl'))?.reason).toMatch(/not a regular file/);
    },
  );

  it('listing, search, read and stats: exit 0, and no terminal escape reaches text output', async () => {
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    for (const args of [
      ['index'],
      ['sessions', '--all'],
      ['search', 'paste'],
      ['search', 'hostile last line'],
      ['search', '-E', '(a+)+$'],
      ['search', '-E', 'c;ZXZpbA'],
      ['read', HOSTILE_ID.slice(0, 8)],
      ['read', HOSTILE_ID.slice(0, 8), '--full', '--hide', 'tool'],
      ['stats'],
      ['sources'],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(controls);
    }
    const json = await runCli(['read', HOSTILE_ID.slice(0, 8), '--json']);
    expect(json.code).toBe(0);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('\\u001b]52;c;ZXZpbA==');
  });

  it('history-index, markers, topics, map, pack and llm check over the hostile folder and store', async () => {
    const out = join(root, 'hostile.index.json');
    const hi = await runCli(['history-index', '--session', HOSTILE_ID.slice(0, 8), '--out', out]);
    expect(hi.code, hi.stderr).toBe(0);
    expect((await runCli(['markers', '--index', out])).code).toBe(0);
    expect((await runCli(['topics', '--index', out])).code).toBe(0);
    const docs = join(root, 'docs');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'guide.md'), `# Guide\n\n${ESC}]52;c;AAAA\u0007 text\n\n## Part\n\nmore text\n`);
    execFileSync('mkfifo', [join(docs, 'pipe.md')]);
    for (const args of [
      ['map', 'render', project, '--budget', '500', '--no-cache'],
      ['pack', 'build', '--repo-root', docs],
      ['pack', 'search', 'guide', '--repo-root', docs],
      ['llm', 'check'],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  });

  it('a folder that cannot be read is reported with its reason, the rest ingested', async () => {
    const src = tempDir('strata-hostile-perm-');
    const permHome = tempDir('strata-hostile-permhome-');
    chmodSync(src, 0o777);
    chmodSync(permHome, 0o777);
    copyFileSync(ORDINARY, join(src, `${ORDINARY_ID}.jsonl`));
    chmodSync(join(src, `${ORDINARY_ID}.jsonl`), 0o644);
    mkdirSync(join(src, 'locked'));
    chmodSync(join(src, 'locked'), 0);
    // As root, permissions are not enforced: run the CLI as `nobody` then.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const r = await runCli(['ingest', src, '--json'], { STRATA_HOME: permHome, HOME: permHome }, asNobody);
    chmodSync(join(src, 'locked'), 0o755);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { filesIngested: number; problems: { path: string; reason: string }[] };
    expect(report.filesIngested).toBe(1);
    expect(report.problems).toContainEqual({ path: join(src, 'locked'), reason: 'cannot read folder: EACCES' });
  });

  it('every bad argument is one line on stderr and exit 2', async () => {
    for (const args of [
      ['index', '--limit', '1e19'],
      ['index', '--limit', '0'],
      ['search', 'x', '--limit', '0'],
      ['search', 'x', '-m', '0'],
      ['search', 'x', '-C', '-1'],
      ['search', '-E', '(a)\\1'],
      ['search', '-E', '(unclosed'],
      ['pack', 'search', 'x', '-k', '99999999999999999999'],
      ['map', 'search', 'foo', '--manifest', join(root, 'secret.txt')],
      ['history-index', '--history', join(root, 'nonexistent.json')],
      ['history-index', '--history', join(root, 'secret.txt')],
      ['read', 'nosuchsession'],
      ['ingest', join(root, 'nonexistent')],
      ['index', '--agent', 'nobody'],
      ['read', HOSTILE_ID.slice(0, 8), '--target', '2.5'],
      ['history-index', '--max-cost', 'lots'],
      // A FIFO where a file is expected is refused, never read (the read would block for ever).
      ['markers', '--index', join(project, 'pipe.jsonl')],
      [
        'history-index',
        '--history',
        join(project, `${ORDINARY_ID}.jsonl`),
        '--out',
        join(root, 'f.json'),
        '--marker-config',
        join(project, 'pipe.jsonl'),
      ],
      ['map', 'search', 'foo', '--manifest', join(project, 'pipe.jsonl')],
      ['pack', 'stats', '--pack', join(project, 'pipe.jsonl')],
      ['history-index', '--history', join(project, 'pipe.jsonl')],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(
        r.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('strata:') && !l.startsWith('strata: warning:')),
        args.join(' '),
      ).toHaveLength(1);
    }
  });

  it('a copy of the store with its later pages zeroed: exit 4 with one line, never a stack trace', async () => {
    const damaged = join(root, 'damaged');
    mkdirSync(damaged, { recursive: true });
    const db = join(damaged, 'strata.db');
    const conn = new Database(join(home, 'strata.db'));
    conn.pragma('wal_checkpoint(TRUNCATE)');
    conn.close();
    copyFileSync(join(home, 'strata.db'), db);
    const size = statSync(db).size;
    const start = Math.floor(size / 4096 / 2) * 4096;
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(size - start), 0, size - start, start);
    closeSync(fd);
    const env = { STRATA_HOME: damaged, HOME: root };
    for (const args of [['search', '-E', 'hostile']]) {
      const r = await runCli(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toMatch(/^strata: the store .*is unusable \(corrupted/);
    }
    for (const args of [
      ['index'],
      ['stats'],
      ['search', 'hostile'],
      ['read', ORDINARY_ID.slice(0, 8)],
      ['ingest', project],
    ]) {
      const r = await runCli(args, env);
      expect([0, 4], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
    }
  });
});
