// End-to-end: `strata hook ingest` and `strata hook context` run by the built CLI with hook payloads on
// stdin, as Claude Code runs them (temp STRATA_HOME; transcripts copied from the real fixtures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { holdLock, runCli } from './support/cli.js';
import { join, resolve } from 'node:path';

const ROOT = process.cwd();
const SESSION = '1fb5e404-604d-4a2b-baf1-3beb42a67371';
const SOURCE = resolve(
  ROOT,
  '../shared/fixtures/real/claude-code/omarchy-backup/projects/-home-vwestberg-Claude',
  `${SESSION}.jsonl`,
);
const PROJECT = '/home/vwestberg/Claude';

let base: string;
let transcript: string;

async function strata(args: string[], stdin: unknown, extraEnv: Record<string, string> = {}) {
  const env = { HOME: join(base, 'home'), STRATA_HOME: join(base, 'data'), ...extraEnv };
  return await runCli(args, env, { input: typeof stdin === 'string' ? stdin : JSON.stringify(stdin), cwd: base });
}

const payload = (event: string, extra: Record<string, unknown> = {}) => ({
  session_id: SESSION,
  transcript_path: transcript,
  cwd: PROJECT,
  hook_event_name: event,
  ...extra,
});

async function search(word: string): Promise<string> {
  return (await strata(['search', word, '-l'], '')).stdout;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-hook-e2e-'));
  mkdirSync(join(base, 'projects', '-home-vwestberg-Claude'), { recursive: true });
  transcript = join(base, 'projects', '-home-vwestberg-Claude', `${SESSION}.jsonl`);
  copyFileSync(SOURCE, transcript);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('strata hook', () => {
  it('does nothing inside a strata sub-call', async () => {
    const r = await strata(['hook', 'ingest'], payload('SessionEnd'), { STRATA_SUBCALL: '1' });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(base, 'data', 'strata.db'))).toBe(false);
    expect(await strata(['hook', 'context'], payload('SessionStart'), { STRATA_SUBCALL: '1' })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('context prints nothing for a store that knows no session of the project', async () => {
    expect(await strata(['hook', 'context'], payload('SessionStart'))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('ingest reads the transcript the payload names, silently', async () => {
    const r = await strata(['hook', 'ingest'], payload('SessionEnd', { reason: 'exit' }));
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await search('hypridle')).toContain('1fb5e404');
  });

  it('leaves the work to the next run while another writer holds the lock, then catches up incrementally', async () => {
    const line =
      JSON.stringify({
        type: 'user',
        uuid: 'hook-e2e-1',
        sessionId: SESSION,
        cwd: PROJECT,
        timestamp: '2026-04-30T00:00:00.000Z',
        message: { role: 'user', content: 'quetzalcoatlus turn' },
      }) + '\n';
    appendFileSync(transcript, line);
    const lock = join(base, 'data', 'strata.db.lock');
    const holder = await holdLock(lock, 'strata ingest');
    try {
      const r = await strata(['hook', 'ingest'], payload('PreCompact', { trigger: 'auto' }));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^strata: hook ingest: the store is busy; .* is queued for the next writer\n$/);
      expect(await search('quetzalcoatlus')).toBe('');
    } finally {
      await holder.stop();
    }
    expect((await strata(['hook', 'ingest'], payload('SessionEnd'))).code).toBe(0);
    expect(await search('quetzalcoatlus')).toContain('1fb5e404');
  });

  it('a SessionEnd deferred by a held lock is logged, queued, and done by the next writer of any kind', async () => {
    const other = join(base, 'elsewhere', `${SESSION.replace('1fb5', 'aaaa')}.jsonl`);
    mkdirSync(join(base, 'elsewhere'), { recursive: true });
    const text = readFileSync(transcript, 'utf8').replaceAll(SESSION, SESSION.replace('1fb5', 'aaaa'));
    // Another project, so that the context tests below still see only the first session.
    writeFileSync(other, text.replaceAll('quetzalcoatlus', 'archaeopteryx').replaceAll(PROJECT, '/elsewhere'));
    const holder = await holdLock(join(base, 'data', 'strata.db.lock'), 'strata ingest');
    try {
      expect((await strata(['hook', 'ingest'], payload('SessionEnd', { transcript_path: other }))).code).toBe(0);
    } finally {
      await holder.stop();
    }
    const log = readFileSync(join(base, 'data', 'hooks.log'), 'utf8');
    expect(log).toContain(`hook ingest: the store is busy; ${other} is queued for the next writer`);
    expect(readdirSync(join(base, 'data', 'strata.db.deferred'))).toHaveLength(1);
    expect(await search('archaeopteryx')).toBe('');
    // The next writer is an ingest of another (unchanged) file: it does the queued work too.
    const r = await strata(['ingest', transcript], '');
    expect(r.code, r.stderr).toBe(0);
    expect(await search('archaeopteryx')).toContain('aaaa');
    expect(readdirSync(join(base, 'data', 'strata.db.deferred'))).toEqual([]);
  });

  it('context prints only the SessionStart JSON with the latest sessions of the project', async () => {
    const r = await strata(
      ['hook', 'context', '--budget', '800'],
      payload('SessionStart', { source: 'startup', session_id: 'a7f3e1d0-new-session' }),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toMatch(
      new RegExp(
        /^# Latest sessions of this project \(strata\)\n1fb5e404 {2}2026-04-24 20:59 {2}claude-code {2}/.source +
          /\d+ msgs {2}my screen saver/.source,
      ),
    );
    // Resumed, the session is not among the sessions it is told of.
    const resumed = await strata(['hook', 'context', '--budget', '800'], payload('SessionStart', { source: 'resume' }));
    expect(resumed).toMatchObject({ code: 0, stdout: '' });
  });

  it('context starts with the project logbook once one is built, all within the budget', async () => {
    expect((await strata(['logbook', '--project', PROJECT], '')).code).toBe(0);
    const r = await strata(
      ['hook', 'context', '--budget', '600'],
      payload('SessionStart', { source: 'startup', session_id: 'a7f3e1d0-new-session' }),
    );
    expect(r.code).toBe(0);
    const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^# Project logbook \(strata\)\nProject logbook: \/home\/vwestberg\/Claude /);
    expect(context).toMatch(/\[strata read 1fb5e404-604d-4a2b-baf1-3beb42a67371 \d+\]/);
    expect(context).toContain('# Latest sessions of this project (strata)\n1fb5e404');
    expect(context.length).toBeLessThan(600 * 6);
  });

  it('a missing transcript or a broken payload exits 0, logs the failure and prints nothing on stdout', async () => {
    const r = await strata(['hook', 'ingest'], payload('SessionEnd', { transcript_path: join(base, 'gone.jsonl') }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^strata: hook ingest: no transcript file at .*gone\.jsonl\n$/);
    expect(readFileSync(join(base, 'data', 'hooks.log'), 'utf8')).toMatch(
      /Z hook ingest: no transcript file at .*gone\.jsonl\n$/,
    );
    expect((await strata(['hook', 'context'], 'not json')).stdout).toBe('');
  });
});
