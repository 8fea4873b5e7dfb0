// Reads offline logbook events next to their sources: ingests the given fixture folders into a temp
// store, builds each project's logbook with the built CLI, and prints every event beside the message it
// cites (`strata read <session> <N>`), for grading by hand. Usage: node scripts/logbook-eval.mjs DIR...
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const home = process.env.STRATA_HOME ?? mkdtempSync(join(tmpdir(), 'strata-eval-'));
const env = { ...process.env, STRATA_HOME: home, HOME: home, TZ: 'UTC', NO_COLOR: '1' };
const run = (args) => spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 28 });

const dirs = process.argv.slice(2);
if (dirs.length > 0) run(['ingest', ...dirs]);
const projects = new Map();
for (const s of JSON.parse(run(['index', '--json']).stdout)) {
  if (s.project) projects.set(s.project, (projects.get(s.project) ?? 0) + 1);
}
let total = 0;
for (const [project, count] of projects) {
  const built = run(['logbook', '--project', project, '--full', '--format', 'json']);
  if (built.status !== 0) {
    console.log(`## ${project} (${count} sessions): exit ${built.status} ${built.stderr.trim()}`);
    continue;
  }
  const events = JSON.parse(built.stdout).timeline;
  total += events.length;
  console.log(`\n## ${project} (${count} sessions): ${events.length} events`);
  for (const e of events) {
    console.log(`\n* [${e.type}] ${e.content}`);
    for (const k of ['rationale', 'alternatives', 'resolution'])
      if (e[k]) console.log(`    ${k}: ${JSON.stringify(e[k])}`);
    const source = run(['read', e.source.session, String(e.source.message)]).stdout;
    console.log(
      source
        .split('\n')
        .slice(0, 14)
        .map((l) => `    | ${l.slice(0, 220)}`)
        .join('\n'),
    );
  }
  const shown = run(['logbook', 'show', '--project', project, '--budget', '400']).stdout;
  console.log(
    `\n  show --budget 400:\n${shown
      .split('\n')
      .map((l) => `    > ${l}`)
      .join('\n')}`,
  );
}
console.log(`\n${projects.size} projects, ${total} events`);
