// Offline logbook quality on the real fixtures: every project's logbook is built with the extractive
// provider, each event is looked up in its grades (graded by reading it next to its source message: useful,
// partly, wrong type or noise) and the shares are printed for two sets: the tuning set (sessions graded in
// bench/logbook-grades.json, which the rules were tuned on) and the held-out set (every other session,
// graded in bench/logbook-heldout-grades.json). Events not graded yet are listed with their source. The
// `--budget 400` text the session-start hook injects is checked on every project: a noise line fails the run.
// Usage: node bench/logbook-quality.mjs [--ungraded] [--list <grade>]... [--budget-of <project>]... [--home <dir>]
// (build first)
// STRATA_FIXTURES overrides ../shared/fixtures/real; test/fixtures (real-extra) is always included.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, '../dist/cli/main.js');
const ROOTS = [
  resolve(here, '../test/fixtures'),
  process.env.STRATA_FIXTURES ?? resolve(here, '../../shared/fixtures/real'),
];
const GRADES = JSON.parse(readFileSync(join(here, 'logbook-grades.json'), 'utf8'));
const HELD_OUT = JSON.parse(readFileSync(join(here, 'logbook-heldout-grades.json'), 'utf8'));
const GRADE_NAMES = ['useful', 'partly', 'wrong-type', 'noise'];
/** Sessions of the tuning set: those with an event graded in logbook-grades.json. */
const TUNED = new Set(Object.keys(GRADES).map((k) => k.split('#')[1]));
const setOf = (event) => (TUNED.has(event.source.session.slice(0, 8)) ? 'tuned' : 'held-out');
const zero = () => Object.fromEntries([...GRADE_NAMES, 'ungraded'].map((g) => [g, 0]));

/** The key of an event in the grades file: session prefix, message number, start of its content. */
const eventKey = (e) => `${e.type[0]}#${e.source.session.slice(0, 8)}#${e.source.message}#${e.content.slice(0, 48)}`;

function cli(home, args) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, STRATA_HOME: home, HOME: home, TZ: 'UTC', NO_COLOR: '1' },
    maxBuffer: 1 << 27,
  });
  if (r.status !== 0) throw new Error(`strata ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout;
}

function main() {
  const argv = process.argv.slice(2);
  const showUngraded = argv.includes('--ungraded');
  const list = new Set(argv.flatMap((a, i) => (argv[i - 1] === '--list' ? [a] : [])));
  const budgetOf = argv.flatMap((a, i) => (argv[i - 1] === '--budget-of' ? [a] : []));
  // --home DIR keeps the store between runs (re-ingest is incremental); by default a temporary one.
  const kept = argv.flatMap((a, i) => (argv[i - 1] === '--home' ? [a] : []))[0];
  const home = kept ?? mkdtempSync(join(tmpdir(), 'strata-bench-lbq-'));
  try {
    for (const root of ROOTS) cli(home, ['ingest', root, '--json']);
    const rows = JSON.parse(cli(home, ['sessions', '--json', '--limit', '100000']));
    const projects = [...new Set((rows.sessions ?? rows).map((s) => s.project).filter(Boolean))].sort();
    const counts = { tuned: zero(), 'held-out': zero() };
    const ungraded = [];
    const byKey = new Map();
    for (const project of projects) {
      const doc = JSON.parse(cli(home, ['logbook', '--project', project, '--full', '--format', 'json']));
      const tally = zero();
      for (const event of doc.timeline) {
        const key = eventKey(event);
        const set = setOf(event);
        const grade = (set === 'tuned' ? GRADES : HELD_OUT)[key] ?? 'ungraded';
        byKey.set(`${project}\n${event.content}`, grade);
        counts[set][grade]++;
        tally[grade]++;
        if (grade === 'ungraded') ungraded.push({ project, event, key, set });
        if (list.has(grade)) console.log(`  [${grade}] ${set} ${JSON.stringify(key)} ${event.type}: ${event.content}`);
      }
      const shown = Object.entries(tally).filter(([, n]) => n > 0);
      console.log(
        `${doc.timeline.length.toString().padStart(4)} events  ${project}  ${shown.map((p) => p.join(' ')).join(', ')}`,
      );
    }
    console.log('');
    for (const [set, c] of Object.entries(counts)) {
      const total = Object.values(c).reduce((a, b) => a + b, 0);
      const graded = total - c.ungraded;
      const pct = (n) => `${((100 * n) / Math.max(1, graded)).toFixed(0)}%`;
      console.log(
        `${set.padEnd(8)}: ${total} events, ${graded} graded: useful ${c.useful} (${pct(c.useful)}), partly ` +
          `${c.partly} (${pct(c.partly)}), wrong type ${c['wrong-type']} (${pct(c['wrong-type'])}), noise ` +
          `${c.noise} (${pct(c.noise)}); targets: useful ≥ 70%, noise ≤ 10%`,
      );
    }
    // The hook injects `show --budget 400`: no line of it may be noise, on any project.
    let noisy = 0;
    for (const project of projects) {
      const text = cli(home, ['logbook', 'show', '--project', project, '--budget', '400']);
      const lines = text.trimEnd().split('\n');
      const graded = lines.map((line) => {
        const hit = [...byKey].find(
          ([k]) => k.startsWith(`${project}\n`) && line.includes(k.split('\n')[1].slice(0, 60)),
        );
        return [hit?.[1], line];
      });
      noisy += graded.filter(([g]) => g === 'noise').length;
      if (!budgetOf.includes(project) && !graded.some(([g]) => g === 'noise')) continue;
      console.log(`\n--- logbook show --budget 400 (${project}) ---`);
      for (const [grade, line] of graded) console.log(grade ? `[${grade}] ${line}` : line);
    }
    console.log(`\nbudget 400: ${noisy} noise lines over ${projects.length} projects${noisy ? ' (FAIL)' : ''}`);
    if (noisy) process.exitCode = 1;
    if (showUngraded)
      for (const { project, event, key, set } of ungraded) {
        const src = cli(home, ['read', event.source.session, String(event.source.message), '--target', '200']);
        console.log(`\n=== ${set} ${JSON.stringify(key)} (${project})\n${event.type}: ${event.content}`);
        if (event.resolution) console.log(`  resolution: ${event.resolution}`);
        console.log(
          src
            .split('\n')
            .slice(2, 24)
            .map((l) => `  | ${l.slice(0, 220)}`)
            .join('\n'),
        );
      }
  } finally {
    if (!kept) rmSync(home, { recursive: true, force: true });
  }
}

main();
