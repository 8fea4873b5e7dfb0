// Offline logbook quality on the real fixtures: every project's logbook is built with the extractive
// provider, each event is looked up in bench/logbook-grades.json (graded by reading it next to its source
// message: useful, partly, wrong type or noise) and the shares are printed; events not graded yet are
// listed with their source so they can be read and added. The `--budget 400` text the session-start hook
// injects is printed for the projects named with --budget-of, each line with its grade.
// Usage: node bench/logbook-quality.mjs [--ungraded] [--list <grade>]... [--budget-of <project>]...  (build first)
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
const GRADE_NAMES = ['useful', 'partly', 'wrong-type', 'noise'];

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
  const home = mkdtempSync(join(tmpdir(), 'strata-bench-lbq-'));
  try {
    for (const root of ROOTS) cli(home, ['ingest', root, '--json']);
    const rows = JSON.parse(cli(home, ['sessions', '--json', '--limit', '100000']));
    const projects = [...new Set((rows.sessions ?? rows).map((s) => s.project).filter(Boolean))].sort();
    const counts = Object.fromEntries([...GRADE_NAMES, 'ungraded'].map((g) => [g, 0]));
    const ungraded = [];
    const byKey = new Map();
    for (const project of projects) {
      const doc = JSON.parse(cli(home, ['logbook', '--project', project, '--full', '--format', 'json']));
      const tally = Object.fromEntries([...GRADE_NAMES, 'ungraded'].map((g) => [g, 0]));
      for (const event of doc.timeline) {
        const key = eventKey(event);
        const grade = GRADES[key] ?? 'ungraded';
        byKey.set(`${project}\n${event.content}`, grade);
        counts[grade]++;
        tally[grade]++;
        if (grade === 'ungraded') ungraded.push({ project, event, key });
        if (list.has(grade)) console.log(`  [${grade}] ${JSON.stringify(key)} ${event.type}: ${event.content}`);
      }
      const shown = Object.entries(tally).filter(([, n]) => n > 0);
      console.log(
        `${doc.timeline.length.toString().padStart(4)} events  ${project}  ${shown.map((p) => p.join(' ')).join(', ')}`,
      );
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const graded = total - counts.ungraded;
    const pct = (n) => `${((100 * n) / Math.max(1, graded)).toFixed(0)}%`;
    console.log(
      `\n${total} events, ${graded} graded: useful ${counts.useful} (${pct(counts.useful)}), partly ${counts.partly} ` +
        `(${pct(counts.partly)}), wrong type ${counts['wrong-type']} (${pct(counts['wrong-type'])}), noise ` +
        `${counts.noise} (${pct(counts.noise)}); targets: useful ≥ 70%, noise ≤ 10%`,
    );
    for (const project of budgetOf) {
      const text = cli(home, ['logbook', 'show', '--project', project, '--budget', '400']);
      console.log(`\n--- logbook show --budget 400 (${project}) ---`);
      for (const line of text.trimEnd().split('\n')) {
        const grade = [...byKey].find(([k]) => line.includes(k.split('\n')[1].slice(0, 60)))?.[1];
        console.log(grade ? `[${grade}] ${line}` : line);
      }
    }
    if (showUngraded)
      for (const { project, event, key } of ungraded) {
        const src = cli(home, ['read', event.source.session, String(event.source.message), '--target', '200']);
        console.log(`\n=== ${JSON.stringify(key)} (${project})\n${event.type}: ${event.content}`);
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
    rmSync(home, { recursive: true, force: true });
  }
}

main();
