// Off-thread extractive summaries run from the built files (a worker needs compiled JavaScript): the
// answers must be the ones the caller's thread computes, and a worker that dies must not lose one.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = join(import.meta.dirname, '..', 'dist', 'core', 'llm', 'extractive');

function runScript(script: string): string {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.trim();
}

const SEGMENTS = `[
  'User: Add a dark mode toggle to the settings page.\\nAssistant: I added the toggle in settings.tsx.',
  'User: The login redirect loops after logout.\\nAssistant: A stale session cookie was the cause; fixed in auth.ts.',
  'User: @/decision: keep SQLite as the only store.\\nAssistant: Agreed, we decided to keep one database file.',
]`;

describe('summarizeSegmentOffThread (built files)', () => {
  it('answers exactly as summarizeSegment does, several requests in flight, and lets the process exit', () => {
    const out = runScript(`
      const { summarizeSegmentOffThread } = await import(${JSON.stringify(join(DIST, 'off-thread.js'))});
      const { summarizeSegment } = await import(${JSON.stringify(join(DIST, 'summarize.js'))});
      const segments = ${SEGMENTS};
      const off = await Promise.all(segments.map((s) => summarizeSegmentOffThread(s)));
      const here = segments.map((s) => summarizeSegment(s));
      console.log(JSON.stringify(off) === JSON.stringify(here) ? 'same' : 'differ');
    `);
    expect(out).toBe('same');
  });

  it('computes the owed answers on the caller thread when the worker dies', () => {
    const out = runScript(`
      const { Worker } = await import('node:worker_threads');
      // Every message kills the worker instead of reaching it: only the caller's thread can answer.
      Worker.prototype.postMessage = function () { this.terminate(); };
      const { summarizeSegmentOffThread } = await import(${JSON.stringify(join(DIST, 'off-thread.js'))});
      const { summarizeSegment } = await import(${JSON.stringify(join(DIST, 'summarize.js'))});
      const segments = ${SEGMENTS};
      const off = await Promise.all(segments.map((s) => summarizeSegmentOffThread(s)));
      console.log(JSON.stringify(off) === JSON.stringify(segments.map((s) => summarizeSegment(s))) ? 'same' : 'differ');
    `);
    expect(out).toBe('same');
  });
});
