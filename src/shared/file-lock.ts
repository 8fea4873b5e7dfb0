// Owns cross-process exclusive locks: a lock file created with O_EXCL that names its holder,
// waited on with a timeout, and taken over when its holder process is gone.
import { closeSync, openSync, readFileSync, rmSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { StrataError } from './errors.js';

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export interface LockOptions {
  /** How long to wait for another holder, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** What the holder is doing, shown to anyone who waits. */
  command?: string;
  /** Called once when we start waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
  pollMs?: number;
}

export interface Lock {
  path: string;
  release(): void;
}

function readHolder(path: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string, holder: LockHolder): boolean {
  try {
    const fd = openSync(path, 'wx', 0o644);
    writeSync(fd, JSON.stringify(holder));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another process';
  return `pid ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.since})`;
}

/** Takes the lock at `path`, waiting up to `timeoutMs`; throws LOCKED naming the holder on timeout. */
export function acquireLock(path: string, options: LockOptions = {}): Lock {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 100;
  mkdirSync(dirname(path), { recursive: true });
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command: options.command ?? process.argv.slice(1).join(' '),
    since: new Date().toISOString(),
  };
  const deadline = Date.now() + timeoutMs;
  let warned = false;
  for (;;) {
    if (tryCreate(path, me)) break;
    const holder = readHolder(path);
    if (holder && !isAlive(holder)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new StrataError('LOCKED', `${path} is held by ${describeHolder(holder)}; gave up after ${Math.round(timeoutMs / 1000)} s`, {
        details: { holder },
      });
    }
    if (!warned) {
      options.onWait?.(holder);
      warned = true;
    }
    sleepSync(pollMs);
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      const holder = readHolder(path);
      if (holder && holder.pid === me.pid && holder.since === me.since) rmSync(path, { force: true });
    },
  };
}
