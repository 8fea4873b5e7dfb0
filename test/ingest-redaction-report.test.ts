// End-to-end: `strata ingest --redaction-report` lists each secret redacted (kind, session, line,
// message) on both ingest paths (worker thread and inline), and never prints a secret's value.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, runCli, tempDir } from './support/cli.js';

const GITHUB = 'ghp_' + 'q8Zr2LmX0vB7nK4wT1yU6iO3pA9sD5fG7hJ2'.slice(0, 36);
const PASSWORD = 'Tr0ub4dor&3xyz';
const GEMINI = join(
  FIXTURES,
  'gemini',
  'vibe-coding-comparison',
  'tmp',
  'ticketing-vc',
  'chats',
  'session-2026-04-25T08-23-e435870b.jsonl',
);

function claudeLine(uuid: string, content: string): string {
  return (
    JSON.stringify({
      type: 'user',
      sessionId: 'report-session',
      uuid,
      timestamp: '2025-06-01T10:00:00.000Z',
      cwd: '/work/app',
      message: { role: 'user', content },
    }) + '\n'
  );
}

function sources(): string {
  const src = tempDir();
  writeFileSync(
    join(src, 'conversation.jsonl'),
    claudeLine(
      '7f0c2a8e-0000-4000-8000-000000000001',
      'no secret here, only max_tokens: Optional[int] and git_author_name = "Jane"',
    ) +
      claudeLine('7f0c2a8e-0000-4000-8000-000000000002', `push with ${GITHUB} please`) +
      claudeLine('7f0c2a8e-0000-4000-8000-000000000003', `export REDIS_PASS=${PASSWORD}`),
  );
  const chats = join(src, 'gemini', 'tmp', 'ticketing-vc', 'chats');
  mkdirSync(chats, { recursive: true });
  copyFileSync(GEMINI, join(chats, 'session-2026-04-25T08-23-e435870b.jsonl'));
  return src;
}

describe('strata ingest --redaction-report', () => {
  for (const worker of ['0', '1'] as const) {
    it(`lists kind, session, line and message of each secret, never its value (worker ${worker})`, async () => {
      const src = sources();
      const res = await runCli(['ingest', src, '--redaction-report'], {
        STRATA_HOME: tempDir(),
        STRATA_INGEST_WORKER: worker,
      });
      expect(res.code).toBe(0);
      const rows = res.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'));
      expect(rows[0]).toEqual(['kind', 'session', 'line', 'message']);
      expect(rows).toContainEqual(['github-token', 'report-session', '2', '7f0c2a8e-0000-4000-8000-000000000002']);
      expect(rows).toContainEqual(['env-secret', 'report-session', '3', '7f0c2a8e-0000-4000-8000-000000000003']);
      expect(rows.filter((r) => r[0] === 'url-password')).toHaveLength(1);
      expect(rows).toHaveLength(4);
      expect(res.stderr).toMatch(/redactions: 3\b/);
      for (const out of [res.stdout, res.stderr]) {
        expect(out).not.toContain(GITHUB);
        expect(out).not.toContain(PASSWORD);
        expect(out).not.toContain('psqladmin');
      }
    });
  }

  it('puts the list in the JSON report only when asked', async () => {
    const src = sources();
    const asked = JSON.parse(
      (await runCli(['ingest', src, '--json', '--redaction-report'], { STRATA_HOME: tempDir() })).stdout,
    );
    expect(asked.redactionsWhere).toHaveLength(3);
    expect(asked.redactionsWhere).toContainEqual({
      kind: 'github-token',
      session: 'report-session',
      message: '7f0c2a8e-0000-4000-8000-000000000002',
      line: 2,
    });
    const plain = JSON.parse((await runCli(['ingest', src, '--json'], { STRATA_HOME: tempDir() })).stdout);
    expect(plain.redactionsWhere).toBeUndefined();
    expect(plain.redactions).toBe(3);
  });
});
