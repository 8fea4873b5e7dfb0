// Hook benchmark: `strata hook ingest` (a fresh process, as a client runs it) on a ~5 MB Claude Code
// transcript that grew by one turn since the last run, resampled from the real fixtures.
// Usage: node bench/hooks.mjs [runs=20]
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateClaudeCorpus } from './corpus.mjs';
import { STRATA_BIN, pct } from './shared.mjs';

const CLI = STRATA_BIN;
const runs = Number(process.argv[2] ?? 20);
// Fresh processes run without NODE_EXTRA_CA_CERTS (see bench/retrieval.mjs): the numbers are strata's.
const { NODE_EXTRA_CA_CERTS: _certs, ...cleanEnv } = process.env;

const dir = mkdtempSync(join(tmpdir(), 'strata-bench-hooks-'));
try {
  const id = 'b00c5e55-0000-4000-a000-000000000005';
  const src = join(dir, 'src');
  generateClaudeCorpus(src, { sessions: 60, seed: 7, maxRecords: 1_000_000 });
  let text = '';
  for (const f of readdirSync(src, { recursive: true }).filter((f) => String(f).endsWith('.jsonl'))) {
    if (text.length >= 5e6) break;
    text += readFileSync(join(src, String(f)), 'utf8').replace(/"sessionId":"[^"]+"/g, `"sessionId":"${id}"`);
  }
  const projectDir = join(dir, 'projects', '-home-bench-app');
  mkdirSync(projectDir, { recursive: true });
  const transcript = join(projectDir, `${id}.jsonl`);
  writeFileSync(transcript, text);
  const env = { ...cleanEnv, HOME: join(dir, 'home'), STRATA_HOME: join(dir, 'data'), TZ: 'UTC' };
  const payload = JSON.stringify({
    session_id: id,
    transcript_path: transcript,
    cwd: '/home/bench/app',
    hook_event_name: 'SessionEnd',
  });
  const hook = () => {
    const started = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'hook', 'ingest'], { input: payload, env, encoding: 'utf8' });
    if (r.status !== 0 || r.stderr) throw new Error(`strata hook ingest failed: ${r.stderr}`);
    return performance.now() - started;
  };
  console.log(
    `transcript: ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB; first hook ingest ${hook().toFixed(0)} ms`,
  );
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    appendFileSync(
      transcript,
      JSON.stringify({
        type: 'user',
        uuid: `bench-u${i}`,
        sessionId: id,
        cwd: '/home/bench/app',
        timestamp: at,
        message: { role: 'user', content: `turn ${i}: run the tests again` },
      }) +
        '\n' +
        JSON.stringify({
          type: 'assistant',
          uuid: `bench-a${i}`,
          sessionId: id,
          cwd: '/home/bench/app',
          timestamp: at,
          message: {
            id: `msg_bench_${i}`,
            role: 'assistant',
            model: 'bench',
            content: [{ type: 'text', text: `All tests pass after turn ${i}.` }],
          },
        }) +
        '\n',
    );
    samples.push(hook());
  }
  const p95 = pct(samples, 95);
  console.log(
    `${'hook ingest, 5 MB transcript + one turn'.padEnd(44)} p50 ${pct(samples, 50).toFixed(1).padStart(8)} ms  p95 ` +
      `${p95.toFixed(1).padStart(8)} ms  n=${samples.length}  (target p95 ≤ 300 ms: ${p95 <= 300 ? 'met' : 'NOT met'})`,
  );
  const floor = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env });
    floor.push(performance.now() - started);
  }
  console.log(
    `${'node -e 0 (start-up floor of any process)'.padEnd(44)} p50 ${pct(floor, 50).toFixed(1).padStart(8)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
