import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRefresher, readLastIngest, recordLastIngest } from './refresh.js';
import { StrataError } from '../../shared/errors.js';
import { emptyReport } from './report.js';
import type { Store } from '../../store/db.js';

let home: string;
let env: Record<string, string>;
const store = { path: '/nowhere/strata.db' } as Store;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'strata-refresh-'));
  env = { STRATA_HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('createRefresher', () => {
  it('ingests the default roots without waiting for the lock, then stays fresh for maxAgeMs', async () => {
    let now = 1_000_000;
    const calls: unknown[] = [];
    const refresh = createRefresher({
      store,
      env,
      cwd: home,
      maxAgeMs: 30_000,
      now: () => now,
      ingestFn: async (o) => (calls.push(o), emptyReport()),
    });
    expect(await refresh()).toBe('ingested');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ paths: [], lockTimeoutMs: 0 });
    expect(readLastIngest(env)).toBe(1_000_000);
    now += 29_999;
    expect(await refresh()).toBe('fresh');
    now += 1;
    expect(await refresh()).toBe('ingested');
    expect(calls).toHaveLength(2);
  });

  it('a held lock answers "locked" and leaves the stamp alone; other failures are reported, never thrown', async () => {
    recordLastIngest(env, 5);
    const errors: string[] = [];
    const locked = createRefresher({
      store,
      env,
      cwd: home,
      maxAgeMs: 0,
      ingestFn: async () => {
        throw new StrataError('LOCKED', 'held');
      },
    });
    expect(await locked()).toBe('locked');
    expect(readLastIngest(env)).toBe(5);
    const broken = createRefresher({
      store,
      env,
      cwd: home,
      maxAgeMs: 0,
      onError: (m) => errors.push(m),
      ingestFn: async () => {
        throw new Error('disk on fire');
      },
    });
    expect(await broken()).toBe('failed');
    expect(errors).toEqual(['refresh failed: disk on fire']);
  });

  it('concurrent calls share one ingest', async () => {
    let runs = 0;
    const refresh = createRefresher({
      store,
      env,
      cwd: home,
      maxAgeMs: 0,
      ingestFn: async () => (runs++, await new Promise((r) => setTimeout(r, 20)), emptyReport()),
    });
    expect(await Promise.all([refresh(), refresh(), refresh()])).toEqual(['ingested', 'ingested', 'ingested']);
    expect(runs).toBe(1);
  });
});
