// Offline logbook quality on the real fixtures: every project's logbook is built with the extractive
// provider, each event is looked up in its grades (graded by reading it next to its source message: useful,
// partly, wrong type or noise) and the shares are printed per set: the tuning set (sessions graded in
// bench/logbook-grades.json, which the rules were tuned on), the old held-out set (every other session of
// test/fixtures and the shared fixtures, graded in bench/logbook-heldout-grades.json), and the sessions of
// bench/fixtures/logbook-heldout split by a fixed hash of the session id (SPLIT below) into TUNE (graded in
// bench/logbook-new-tune-grades.json; rules may be tuned on it) and BLIND (graded by someone who never tuned
// a rule, in bench/logbook-blind-grades.json). BLIND events are never printed except by --list-blind, which
// prints each with its grades-file key and source message so it can be graded as is. BLIND3, BLIND4 and BLIND5
// are every session of bench/fixtures/logbook-blind3 (-blind4, -blind5), sets whose expected events were
// written before any output was seen (bench/logbook-blind3-expected.md, …), graded in
// bench/logbook-blind3-grades.json (…) and printed only by --list-blind3 (…); a plain run shows their counts. Events
// not graded yet
// are listed with their source. The `--budget 400` text the session-start hook injects is checked on every
// project: a noise line fails the run.
// Usage: node bench/logbook-quality.mjs [--ungraded] [--list <grade>]... [--budget-of <project>]...
//   [--list-blind] [--list-blind3] … [--list-blind7] [--home <dir>]   (build first)
// STRATA_FIXTURES overrides ../shared/fixtures/real; test/fixtures (real-extra) is always included.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, '../dist/cli/main.js');
const NEW_ROOT = resolve(here, 'fixtures/logbook-heldout');
/** Sets written blind, each from its own fixture folder (a folder not checked out yet is skipped). */
const BLIND_SETS = ['BLIND3', 'BLIND4', 'BLIND5', 'BLIND6', 'BLIND7', 'BLIND8']
  .map((name) => ({ name, flag: name.toLowerCase(), root: resolve(here, `fixtures/logbook-${name.toLowerCase()}`) }))
  .filter((b) => existsSync(b.root));
const ROOTS = [
  NEW_ROOT,
  ...BLIND_SETS.map((b) => b.root),
  resolve(here, '../test/fixtures'),
  process.env.STRATA_FIXTURES ?? resolve(here, '../../shared/fixtures/real'),
];
const grades = (name) => (existsSync(join(here, name)) ? JSON.parse(readFileSync(join(here, name), 'utf8')) : {});
const GRADES = grades('logbook-grades.json');
const BY_SET = {
  tuned: GRADES,
  'held-out': grades('logbook-heldout-grades.json'),
  TUNE: grades('logbook-new-tune-grades.json'),
  BLIND: grades('logbook-blind-grades.json'),
  ...Object.fromEntries(BLIND_SETS.map((b) => [b.name, grades(`logbook-${b.flag}-grades.json`)])),
};
/** Sets whose event texts stay hidden unless their own --list flag asks for them. */
const HIDDEN = { BLIND: 'blind', ...Object.fromEntries(BLIND_SETS.map((b) => [b.name, b.flag])) };
const GRADE_NAMES = ['useful', 'partly', 'wrong-type', 'noise'];
/** Sessions of the tuning set: those with an event graded in logbook-grades.json. */
const TUNED = new Set(Object.keys(GRADES).map((k) => k.split('#')[1]));
/** The fixed split of the new sessions: even first 32 bits of sha256(session id) → TUNE, odd → BLIND. */
export const SPLIT = (id) =>
  Number.parseInt(createHash('sha256').update(id).digest('hex').slice(0, 8), 16) % 2 === 0 ? 'TUNE' : 'BLIND';
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
  const listed = new Set(Object.values(HIDDEN).filter((flag) => argv.includes(`--list-${flag}`)));
  const list = new Set(argv.flatMap((a, i) => (argv[i - 1] === '--list' ? [a] : [])));
  const budgetOf = argv.flatMap((a, i) => (argv[i - 1] === '--budget-of' ? [a] : []));
  // --home DIR keeps the store between runs (re-ingest is incremental); by default a temporary one.
  const kept = argv.flatMap((a, i) => (argv[i - 1] === '--home' ? [a] : []))[0];
  const home = kept ?? mkdtempSync(join(tmpdir(), 'strata-bench-lbq-'));
  try {
    const sessionsOf = (h) => {
      const rows = JSON.parse(cli(h, ['sessions', '--json', '--limit', '100000']));
      return rows.sessions ?? rows;
    };
    // The sessions of a root, read into a store of their own (a kept store holds every root).
    const idsOf = (root) => {
      const own = mkdtempSync(join(tmpdir(), 'strata-bench-lbq-new-'));
      try {
        cli(own, ['ingest', root, '--json']);
        return new Set(sessionsOf(own).map((s) => s.id));
      } finally {
        rmSync(own, { recursive: true, force: true });
      }
    };
    const fresh = idsOf(NEW_ROOT);
    const blindIds = BLIND_SETS.map((b) => [b.name, idsOf(b.root)]);
    for (const root of ROOTS) cli(home, ['ingest', root, '--json']);
    const setOf = (event) => {
      const id = event.source.session;
      const blindSet = blindIds.find(([, ids]) => ids.has(id));
      if (blindSet) return blindSet[0];
      if (fresh.has(id)) return SPLIT(id);
      return TUNED.has(id.slice(0, 8)) ? 'tuned' : 'held-out';
    };
    const projects = [
      ...new Set(
        sessionsOf(home)
          .map((s) => s.project)
          .filter(Boolean),
      ),
    ].sort();
    const counts = Object.fromEntries(Object.keys(BY_SET).map((set) => [set, zero()]));
    const hiddenEvents = Object.fromEntries(Object.keys(HIDDEN).map((set) => [set, []]));
    const ungraded = [];
    const byKey = new Map();
    for (const project of projects) {
      const doc = JSON.parse(cli(home, ['logbook', '--project', project, '--full', '--format', 'json']));
      const tally = zero();
      for (const event of doc.timeline) {
        const key = eventKey(event);
        const set = setOf(event);
        const grade = BY_SET[set][key] ?? 'ungraded';
        byKey.set(`${project}\n${event.content}`, HIDDEN[set] ? `${HIDDEN[set]}:${grade}` : grade);
        counts[set][grade]++;
        tally[grade]++;
        if (HIDDEN[set]) {
          hiddenEvents[set].push({ project, event, key });
          continue;
        }
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
      const isNoise = ([g]) => g === 'noise' || g?.endsWith(':noise');
      noisy += graded.filter(isNoise).length;
      if (!budgetOf.includes(project) && !graded.some(isNoise)) continue;
      console.log(`\n--- logbook show --budget 400 (${project}) ---`);
      // A hidden set's line is shown only to whoever grades it (--list-blind, --list-blind3, …); the tuner
      // sees its grade alone.
      for (const [grade, line] of graded) {
        const flag = grade?.includes(':') ? grade.split(':')[0] : undefined;
        const hidden = flag !== undefined && !listed.has(flag);
        console.log(grade ? `[${grade}] ${hidden ? '(BLIND event, text hidden)' : line}` : line);
      }
    }
    console.log(`\nbudget 400: ${noisy} noise lines over ${projects.length} projects${noisy ? ' (FAIL)' : ''}`);
    if (noisy) process.exitCode = 1;
    const withSource = ({ project, event, key, set }) => {
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
    };
    if (showUngraded) for (const item of ungraded) withSource(item);
    for (const [set, flag] of Object.entries(HIDDEN)) {
      if (!listed.has(flag)) continue;
      // Each event of the set with its key, to be graded into bench/logbook-<set>-grades.json.
      const items = hiddenEvents[set];
      console.log(`\n${items.length} ${set} events (grade each as useful / partly / wrong-type / noise):`);
      for (const item of items) withSource({ ...item, set: `${set} [${BY_SET[set][item.key] ?? 'ungraded'}]` });
    }
  } finally {
    if (!kept) rmSync(home, { recursive: true, force: true });
  }
}

main();
