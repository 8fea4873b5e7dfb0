// The real-client suite's sandbox: a HOME, a project and a store of their own, a `strata` shim for the built
// CLI on PATH, the clients from test/clients/node_modules, and bounded asynchronous runs (never spawnSync).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REPO, runCli, tempDir } from './cli.js';

export const CLIENTS_DIR = join(REPO, 'test', 'clients');
export const CLIENT_BIN = join(CLIENTS_DIR, 'node_modules', '.bin');
export const CLIENTS_INSTALLED = existsSync(CLIENT_BIN);

/** The fixture session's distinctive words: found only in the session the store is pre-loaded with. */
export const FIXTURE_WORD = 'quillfeather';
export const FIXTURE_PROMPT = `Why does the ${FIXTURE_WORD} cache drop entries after a restart?`;
/** The prompt of each client run: it names no fixture word, so a run's own hits can only be echoes. */
export const RUN_PROMPT = 'What did we find out about the cache that drops entries?';

export interface Sandbox {
  root: string;
  home: string;
  project: string;
  strataHome: string;
  env: Record<string, string>;
  fixtureSession: string;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `command` to completion or `timeoutMs`, then kills its whole process group. */
export function run(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; timeoutMs: number; input?: string },
): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      kill(); // a client's leftover children (MCP servers, hooks) go with it
      resolveRun({ code, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** A Claude Code transcript holding one question and its answer about the fixture word. */
function fixtureTranscript(project: string, id: string): string {
  const base = { sessionId: id, cwd: project, version: '2.1.0', gitBranch: 'main', isSidechain: false };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'f0000000-0000-4000-8000-000000000001',
      parentUuid: null,
      timestamp: '2026-01-05T10:00:00.000Z',
      message: { role: 'user', content: FIXTURE_PROMPT },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'f0000000-0000-4000-8000-000000000002',
      parentUuid: 'f0000000-0000-4000-8000-000000000001',
      timestamp: '2026-01-05T10:00:05.000Z',
      message: {
        id: 'msg_fixture',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        type: 'message',
        content: [{ type: 'text', text: `The ${FIXTURE_WORD} cache keeps its index in memory only; persist it.` }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 10 },
      },
    },
  ];
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** A client's environment with nothing of the user's: HOME, TMPDIR and the XDG folders under `root`. */
export function isolatedEnv(root: string, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: [CLIENT_BIN, process.env.PATH ?? '/usr/bin:/bin'].join(':'),
    HOME: home,
    USER: 'tester',
    SHELL: '/bin/sh',
    TERM: 'dumb',
    TZ: 'UTC',
    NO_COLOR: '1',
    CI: '1',
    TMPDIR: root,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...extra,
  };
}

/**
 * A fresh sandbox: HOME, a git-less project folder, STRATA_HOME pre-loaded with the fixture session, and
 * PATH = the strata shim, the clients, then the system's. `extraEnv` carries each client's own settings.
 */
export async function makeSandbox(name: string, extraEnv: Record<string, string> = {}): Promise<Sandbox> {
  // STRATA_E2E_DEBUG=<dir> keeps the sandbox (HOME, store, client files) for reading after a failure.
  const debug = process.env.STRATA_E2E_DEBUG;
  const root = debug ? mkdtempSync(join(debug, `${name}-`)) : tempDir(`strata-${name}-`);
  const home = join(root, 'home');
  const project = join(root, 'work', `${name}-app`);
  const strataHome = join(root, 'strata');
  const shims = join(root, 'bin');
  for (const dir of [home, project, strataHome, shims]) mkdirSync(dir, { recursive: true });
  const shim = join(shims, 'strata');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(shim, 0o755);
  const env = isolatedEnv(root, home, { PATH: [shims, CLIENT_BIN, process.env.PATH ?? '/usr/bin:/bin'].join(':') });
  env.STRATA_HOME = strataHome;
  Object.assign(env, extraEnv);
  const fixtureSession = 'f1x7ure0-0000-4000-8000-00000000c0de';
  const fixtureDir = join(root, 'fixture');
  mkdirSync(fixtureDir);
  const file = join(fixtureDir, `${fixtureSession}.jsonl`);
  writeFileSync(file, fixtureTranscript(project, fixtureSession));
  const ingested = await runCli(['ingest', '--agent', 'claude-code', file], env);
  if (ingested.code !== 0) throw new Error(`fixture ingest failed: ${ingested.stderr}`);
  return { root, home, project, strataHome, env, fixtureSession };
}

/** Runs the built CLI in the sandbox (its cwd the project) and parses `--json` output. */
export async function strataJson(sandbox: Sandbox, args: string[]): Promise<any> {
  const result = await runCli([...args, '--json'], sandbox.env, { cwd: sandbox.project });
  if (result.code !== 0) throw new Error(`strata ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Runs the built CLI in the sandbox; fails with its stderr on a non-zero exit. */
export async function strata(sandbox: Sandbox, args: string[]): Promise<string> {
  const result = await runCli(args, sandbox.env, { cwd: sandbox.project });
  if (result.code !== 0) throw new Error(`strata ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout + result.stderr;
}

/** A client's `--version`, printed to the test output so a run records what it drove. */
export async function clientVersion(sandbox: Sandbox, bin: string): Promise<string> {
  const result = await run(join(CLIENT_BIN, bin), ['--version'], {
    env: sandbox.env,
    cwd: sandbox.project,
    timeoutMs: 60_000,
  });
  // The last line that names a version (Copilot CLI adds an update hint after it).
  const lines = result.stdout.trim().split('\n');
  const version = lines.reverse().find((line) => /\d+\.\d+/.test(line)) ?? lines[0] ?? '';
  console.log(`client ${bin}: ${version || `no version (exit ${result.code}): ${result.stderr.trim()}`}`);
  return version;
}
