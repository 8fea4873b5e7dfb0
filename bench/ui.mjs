// ui benchmark: the data of each `strata ui` page on 10,000 generated sessions (sessions listing, sorted,
// filtered; activity) and on one ~10 MB session (session page, file history), in-process; the Activity API
// over HTTP; then, when chromium is installed, the Sessions page and the big session drawn in the browser, warm
// and cold (new server, empty browser), and interleaved with another build's when STRATA_BENCH_UI_BASELINE names
// its dist folder.
// Usage: node bench/ui.mjs [sessions=10000] [bigMegabytes=10] [recordsPerSession=24]
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateClaudeCorpus } from './corpus.mjs';
import { openStore } from '../dist/store/db.js';
import { ingest } from '../dist/core/ingest/ingest.js';
import { sessionListPage } from '../dist/core/browse/session-list.js';
import { sessionDetail } from '../dist/core/browse/session-detail.js';
import { activity } from '../dist/core/browse/activity.js';
import { outlineOf, pairResults } from '../dist/core/browse/session-pages.js';
import { fileHistory } from '../dist/core/file-history/file-history.js';
import { startUiServer } from '../dist/ui/server/server.js';
import { pct } from './shared.mjs';

const sessions = Number(process.argv[2] ?? 10_000);
const bigMegabytes = Number(process.argv[3] ?? 10);
const recordsPerSession = Number(process.argv[4] ?? 24);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

function measure(name, fn, runs = 7, target) {
  fn();
  const samples = [];
  let out;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = fn();
    samples.push(performance.now() - t);
  }
  const bytes = out === undefined ? '' : `  ${(JSON.stringify(out).length / 1e6).toFixed(2)} MB JSON`;
  const verdict =
    target === undefined
      ? ''
      : pct(samples, 50) <= target
        ? `  (target ≤ ${target} ms: met)`
        : `  (target ≤ ${target} ms: NOT met)`;
  console.log(
    `${name.padEnd(46)} p50 ${pct(samples, 50).toFixed(1).padStart(8)} ms  p95 ` +
      `${pct(samples, 95).toFixed(1).padStart(8)} ms${bytes}${verdict}`,
  );
}

/** Joins resampled sessions under one id until the file reaches the size asked for. */
function writeBigSession(root) {
  const tmp = join(root, 'big-src');
  generateClaudeCorpus(tmp, { sessions: 80, seed: 7, maxRecords: 1_000_000 });
  const files = readdirSync(tmp, { recursive: true })
    .filter((f) => String(f).endsWith('.jsonl'))
    .map((f) => join(tmp, String(f)));
  const id = 'b16b16b1-0000-4000-a000-00000000ui05';
  let text = '';
  for (const f of files) {
    if (text.length >= bigMegabytes * 1e6) break;
    text += readFileSync(f, 'utf8').replace(/"sessionId":"[^"]+"/g, `"sessionId":"${id}"`);
  }
  const dir = join(root, 'corpus', 'projects', '-home-bench-big');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.jsonl`), text);
  rmSync(tmp, { recursive: true, force: true });
  return { id, bytes: Buffer.byteLength(text) };
}

const line = (name, samples, target) =>
  console.log(
    `${name.padEnd(46)} p50 ${pct(samples, 50).toFixed(1).padStart(8)} ms  max ${Math.max(...samples).toFixed(1)} ms` +
      (target === undefined ? '' : `  (target ≤ ${target} ms: ${pct(samples, 50) <= target ? 'met' : 'NOT met'})`),
  );

/** Milliseconds of a GET to the running server, body read (median of `runs`). */
async function httpTimes(name, url, runs, target) {
  await (await fetch(url)).arrayBuffer();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await (await fetch(url)).arrayBuffer();
    samples.push(performance.now() - t);
  }
  line(name, samples, target);
}

/** Milliseconds from navigation until `ready` is drawn and the main thread is free again (one fresh load), and
 * the bytes of the API answers read before. */
async function loadOnce(page, url, ready, run) {
  let bytes = 0;
  const count = (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) bytes += Number(r.headers()['content-length'] ?? 0);
  };
  page.on('response', count);
  const t = performance.now();
  await page.goto(url.replace('#', `?run=${run}#`));
  await page.waitForSelector(ready, { timeout: 120_000 });
  // Resolves only once the page's own work is done: its task runs after the drawing tasks.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const ms = performance.now() - t;
  page.off('response', count);
  return { ms, bytes };
}

const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A browser with an empty profile (nothing cached). */
async function launch() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'strata-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: BROWSER_ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const kb = (samples) => `${(pct(samples, 50) / 1000).toFixed(0)} kB of API answers`;

/**
 * The Sessions page and the big session drawn in chromium, from navigation to usable, for each build in
 * `builds` ({ name, start(db) → server }), their loads interleaved. Warm: one server and browser each, reloaded;
 * cold: a new store connection, server and empty browser for every load.
 */
async function browserRender(builds, big, storePath, runs = 5) {
  const mb = (big.bytes / 1e6).toFixed(1);
  const middle = Math.round(big.messages / 2);
  const session = `#/session/${big.id}`;
  const targets = [
    ['top', session, '.msg'],
    [`at #${middle}`, `${session}?m=${middle}`, `#m-${middle}.target, .msg.target`],
  ];
  const warm = [];
  for (const b of builds) {
    const store = openStore(storePath);
    const server = await b.start(store.db);
    warm.push({ b, store, server, browser: await launch(), samples: {} });
  }
  try {
    for (const w of warm) {
      const page = await w.browser.context.newPage();
      const t = await loadOnce(page, `${w.server.url}#/sessions`, 'table.sessions tbody tr', 0);
      w.page = page;
      w.samples.sessions = [t];
    }
    for (let i = 1; i < runs; i++)
      for (const w of warm)
        w.samples.sessions.push(await loadOnce(w.page, `${w.server.url}#/sessions`, 'table.sessions tbody tr', i));
    for (const w of warm)
      line(
        `[${w.b.name}] Sessions page (load to table)`,
        w.samples.sessions.map((x) => x.ms),
        1000,
      );
    for (const [label, hash, ready] of targets) {
      for (const w of warm) w.samples[label] = [];
      for (let i = 0; i < runs; i++)
        for (const w of warm) w.samples[label].push(await loadOnce(w.page, `${w.server.url}${hash}`, ready, 100 + i));
      for (const w of warm) {
        const s = w.samples[label];
        line(
          `[${w.b.name}] ${mb} MB session warm, ${label}`,
          s.map((x) => x.ms),
          1500,
        );
        console.log(`${''.padEnd(46)} ${kb(s.map((x) => x.bytes))}`);
      }
    }
    for (const w of warm) {
      const elements = await w.page.evaluate(() => document.getElementsByTagName('*').length);
      console.log(`[${w.b.name}] elements on the page at #${middle}: ${elements}`);
    }
  } finally {
    for (const w of warm) {
      await w.browser.close();
      await w.server.close();
      w.store.close();
    }
  }
  for (const [label, hash, ready] of targets) {
    const cold = new Map(builds.map((b) => [b, []]));
    for (let i = 0; i < runs; i++)
      for (const b of builds) {
        const store = openStore(storePath);
        const server = await b.start(store.db);
        const browser = await launch();
        try {
          cold.get(b).push(await loadOnce(await browser.context.newPage(), `${server.url}${hash}`, ready, i));
        } finally {
          await browser.close();
          await server.close();
          store.close();
        }
      }
    for (const [b, s] of cold) {
      line(
        `[${b.name}] ${mb} MB session cold, ${label}`,
        s.map((x) => x.ms),
        1500,
      );
      console.log(`${''.padEnd(46)} ${kb(s.map((x) => x.bytes))}`);
    }
  }
}

const dir = mkdtempSync(join(process.env.STRATA_BENCH_TMP ?? tmpdir(), 'strata-bench-ui-'));
try {
  const t = performance.now();
  generateClaudeCorpus(join(dir, 'corpus'), { sessions, maxRecords: recordsPerSession, seed: 9 });
  const big = writeBigSession(dir);
  const store = openStore(join(dir, 'home', 'strata.db'));
  await ingest({ store, paths: [join(dir, 'corpus')], env: { HOME: '/home/bench' } });
  const n = store.db.prepare('SELECT COUNT(*) n FROM sessions').get().n;
  const messages = store.db.prepare('SELECT COUNT(*) n FROM messages').get().n;
  console.log(
    `store: ${n} sessions, ${messages} messages (one session of ${(big.bytes / 1e6).toFixed(1)} MB) generated and ` +
      `ingested in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const home = '/home/bench';
  measure(`sessions page data, ${n} sessions, first page`, () => sessionListPage(store.db, {}, home), 7, 300);
  measure('sessions page data, sorted by messages', () => sessionListPage(store.db, { sort: 'messages' }, home));
  measure('sessions page data, text filter', () => sessionListPage(store.db, { text: 'fix' }, home));
  measure('sessions page data, page 50', () => sessionListPage(store.db, { offset: 5000 }, home));
  measure(`activity data, ${n} sessions`, () => activity(store.db), 5, 200);
  measure(
    `session page data, ${(big.bytes / 1e6).toFixed(1)} MB session`,
    () => sessionDetail(store.db, big.id),
    5,
    1000,
  );
  measure(
    'session page first answer (header, window at top)',
    () => {
      const detail = sessionDetail(store.db, big.id);
      return outlineOf(detail, pairResults(detail.messages));
    },
    5,
  );
  const baseline = process.env.STRATA_BENCH_UI_BASELINE;
  if (baseline) {
    const old = await import(pathToFileURL(join(baseline, 'core/browse/activity.js')).href);
    measure(`[baseline] activity data, ${n} sessions`, () => old.activity(store.db), 5, 200);
  }
  measure('file history of a common file name', () => fileHistory(store.db, { path: 'package.json' }), 5);
  const server = await startUiServer({ db: store.db, home });
  try {
    await httpTimes(`Activity API over HTTP, ${n} sessions`, `${server.url}api/activity`, 7, 200);
    await httpTimes('Activity API, last 90 days', `${server.url}api/activity?since=90d`, 7, 200);
    if (existsSync(CHROMIUM) && process.env.STRATA_BENCH_UI_BROWSER !== '0') {
      big.messages = sessionDetail(store.db, big.id).messages.length;
      const builds = [{ name: 'this build', start: (db) => startUiServer({ db, home }) }];
      // Another build's dist folder (STRATA_BENCH_UI_BASELINE=/path/to/dist): its pages timed in turn with these.
      if (baseline) {
        const other = await import(pathToFileURL(join(baseline, 'ui/server/server.js')).href);
        builds.push({ name: 'baseline', start: (db) => other.startUiServer({ db, home }) });
      }
      await browserRender(builds, big, join(dir, 'home', 'strata.db'));
    } else {
      console.log(`(no browser timing: ${CHROMIUM} not found or STRATA_BENCH_UI_BROWSER=0)`);
    }
  } finally {
    await server.close();
  }
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
