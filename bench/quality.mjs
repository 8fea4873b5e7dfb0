// Retrieval quality on the real fixtures: "which session did X" questions (hit@1, hit@5, MRR), with
// ripgrep over the same files as the baseline, and recall of single terms against an independent scan.
// Usage: node bench/quality.mjs [dist folder, default ../dist] — another build's dist compares releases.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '../dist'));
const FIXTURES = resolve(here, '../../shared/fixtures/real');
const SOURCES = ['claude-code', 'codex', 'gemini', 'puffin', 'aider', 'opencode']
  .map((a) => join(FIXTURES, a))
  .filter(existsSync);

/** [question, ids of the sessions that answer it (prefixes of external ids; a subagent's parent counts)]. */
const QUESTIONS = [
  // decisions
  ['screensaver 10 minutes', ['1fb5e404']],
  ['make mps work instead of cuda', ['38b123ff']],
  ['split OrderItemEntity into a value object', ['019c45b2']],
  ['port the python project to rust', ['c7d3d95c']],
  ['visual oracle multimodal scenario testing', ['9a9eadc8']],
  ['add update_cart and change_cart', ['019c3e73']],
  ['create the vibecode schema', ['3494a697']],
  ['orchestrator architecture tasks', ['019a802a']],
  ['inkscape select object by name extension', ['772cf022']],
  ['where did we leave off inputmodule', ['5fbb940a']],
  ['SSH backend connection pool reconnect', ['mnbbzk6o']],
  // fixes
  ['install script permission denied', ['f02a98c9']],
  ['powershell dependency native bash', ['f02a98c9']],
  ['gitignore prisma commit failed', ['0fae0449']],
  ['lefthook pre-push hook', ['0fae0449']],
  ['multiply two numbers test', ['c64cc478']],
  ['coverage with cargo-llvm-cov', ['c7d3d95c']],
  ['database integrity check wal checkpoint', ['mnbco4rk']],
  // error messages
  ['Type "press" is not assignable', ['9a9eadc8']],
  ["ModuleNotFoundError: No module named 'PIL'", ['agent-aa9b6813', '1fb5e404']],
  ['No module named docx', ['5fbb940a']],
  ["can't find crate for std", ['5fbb940a']],
  ["Theme 'mission-control' does not exist", ['1fb5e404']],
  ["AttributeError: module 'calendar' has no attribute", ['1fb5e404']],
  ['Unrecognized key ignoreUnlistedDependencies', ['0fae0449']],
  ["fatal: 'main' is already used by worktree", ['0fae0449']],
  // files
  ['change_cuda_mps.txt', ['38b123ff']],
  ['order_item_details.ex', ['019c45b2']],
  ['math_utils.py', ['c64cc478']],
  ['quick_select.py', ['772cf022']],
  ['flow-install-global.sh', ['f02a98c9']],
  ['make_doc.py', ['5fbb940a']],
  // CJK
  ['世界', ['c7d3d95c']],
  ['移动到指定设备', ['38b123ff']],
  ['鼠标控制信号', ['38b123ff']],
  // identifiers and parts of them
  ['WanxVAEWrapper', ['38b123ff']],
  ['scenarioAgent', ['9a9eadc8']],
  ['m011_native_gan', ['6ad700d7']],
  ['GitHub repo', ['agent-a8e43dc', 'agent-a2327c8', 'agent-a7', '512f6c74', 'agent-ap', '0c4091f0']],
  ['sqlite', ['mnbbvvke', 'bc19d0b3', 'cbf32322', 'mnbco4rk', 'mnbckn98', '0fae0449']],
];

const strataBin = join(dist, 'cli/main.js');
const home = mkdtempSync(join(tmpdir(), 'strata-quality-'));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: join(home, 'home'),
  STRATA_HOME: join(home, 'data'),
  TZ: 'UTC',
  NO_COLOR: '1',
};
const ing = spawnSync(process.execPath, [strataBin, 'ingest', ...SOURCES], { env, encoding: 'utf8' });
if (ing.status !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
const { openStore } = await import(pathToFileURL(join(dist, 'store/db.js')).href);
const { search } = await import(pathToFileURL(join(dist, 'core/retrieval/search.js')).href);
const store = openStore(join(home, 'data', 'strata.db'));
const db = store.db;

const sessionRows = db
  .prepare(`SELECT s.id, s.external_id, p.external_id AS parent,
  (SELECT so.path FROM session_sources ss JOIN sources so ON so.id = ss.source_id WHERE ss.session_id = s.id LIMIT
    1) AS path
  FROM sessions s LEFT JOIN sessions p ON p.id = s.parent_id`)
  .all();
const byExternal = new Map(sessionRows.map((r) => [r.external_id, r]));
const matches = (externalId, expected) => {
  const row = byExternal.get(externalId);
  return expected.some((e) => externalId.startsWith(e) || (row?.parent ?? '').startsWith(e));
};

function strataRank(question, expected) {
  try {
    const result = search(db, { query: question, limit: 20 });
    const i = result.sessions.findIndex((s) => matches(s.id, expected));
    return i < 0 ? undefined : i + 1;
  } catch {
    return undefined; // an error answers nothing
  }
}

/** ripgrep -F -i per word; files ranked by how many of the words they hold, then by matching lines. */
function rgRank(question, expected) {
  const words = question
    .replace(/["']/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1);
  const score = new Map();
  for (const word of words) {
    const r = spawnSync('rg', ['-F', '-i', '-c', '--', word, ...SOURCES], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.error) throw new Error('the baseline needs ripgrep (rg) on the PATH');
    for (const line of r.stdout.split('\n').filter(Boolean)) {
      const at = line.lastIndexOf(':');
      const file = line.slice(0, at);
      const s = score.get(file) ?? { words: 0, lines: 0 };
      s.words++;
      s.lines += Number(line.slice(at + 1));
      score.set(file, s);
    }
  }
  const files = [...score.entries()].sort((a, b) => b[1].words - a[1].words || b[1].lines - a[1].lines).map(([f]) => f);
  const wanted = new Set(sessionRows.filter((r) => matches(r.external_id, expected)).map((r) => r.path));
  const i = files.findIndex((f) => wanted.has(f));
  return i < 0 ? undefined : i + 1;
}

function summary(ranks) {
  const n = ranks.length;
  const at = (k) => ranks.filter((r) => r !== undefined && r <= k).length;
  const mrr = ranks.reduce((sum, r) => sum + (r ? 1 / r : 0), 0) / n;
  return (
    `hit@1 ${at(1)}/${n} (${((100 * at(1)) / n).toFixed(0)}%)  hit@5 ` +
    `${at(5)}/${n} (${((100 * at(5)) / n).toFixed(0)}%)  MRR ${mrr.toFixed(3)}`
  );
}

console.log(`dist: ${dist}`);
console.log(`questions: ${QUESTIONS.length} over ${sessionRows.length} sessions of the fixtures`);
const strataRanks = [];
const rgRanks = [];
for (const [question, expected] of QUESTIONS) {
  const s = strataRank(question, expected);
  const g = rgRank(question, expected);
  strataRanks.push(s);
  rgRanks.push(g);
  console.log(`  ${String(s ?? '-').padStart(2)} ${String(g ?? '-').padStart(3)}  ${question}`);
}
console.log(`strata  ${summary(strataRanks)}`);
console.log(`rg      ${summary(rgRanks)}  (files, not sessions: a file holding many sessions counts as a hit)`);

// Recall: terms sampled from user/assistant text (2/3 whole words, 1/3 parts of identifiers); the scan
// finds a term where a word or a camelCase/snake/kebab part starts (what a word search promises).
const texts = db
  .prepare(`SELECT m.session_id AS sid, s.external_id AS ext, b.field, b.text FROM blocks b JOIN messages m ON m.id
    = b.message_id
  JOIN sessions s ON s.id = m.session_id WHERE b.noise IS NULL`)
  .all();
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const words = new Set();
const parts = new Set();
for (const t of texts) {
  if (t.field !== 'user' && t.field !== 'assistant') continue;
  for (const w of t.text.match(/\b[a-z]{5,12}\b/g) ?? []) words.add(w);
  for (const id of t.text.match(/\b[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g) ?? []) {
    for (const p of id.split(/[_-]|(?<=[a-z0-9])(?=[A-Z])/)) if (/^[A-Za-z]{4,}$/.test(p)) parts.add(p.toLowerCase());
  }
}
const pick = (set, n) => {
  const all = [...set].sort();
  const out = new Set();
  while (out.size < Math.min(n, all.length)) out.add(all[Math.floor(random() * all.length)]);
  return [...out];
};
const terms = [...pick(words, 30), ...pick(parts, 15)];
let expectedTotal = 0;
let foundTotal = 0;
const misses = [];
for (const term of terms) {
  const reCase = new RegExp(
    `(?<![\\p{L}\\p{N}])${term}|(?<=[\\p{Ll}\\p{N}])${term[0].toUpperCase()}${term.slice(1)}`,
    'u',
  );
  const expected = new Set(
    texts
      .filter((t) => new RegExp(`(?<![\\p{L}\\p{N}])${term}`, 'iu').test(t.text) || reCase.test(t.text))
      .map((t) => t.ext),
  );
  let found = new Set();
  try {
    found = new Set(
      search(db, { query: term, limit: 100_000, exhaustive: true, maxPerSession: 1 }).sessions.map((s) => s.id),
    );
  } catch {
    /* counted as nothing found */
  }
  const hit = [...expected].filter((e) => found.has(e)).length;
  expectedTotal += expected.size;
  foundTotal += hit;
  if (hit < expected.size) misses.push(`${term} ${hit}/${expected.size}`);
}
console.log(
  `recall  ${foundTotal}/${expectedTotal} sessions ` +
    `(${((100 * foundTotal) / Math.max(1, expectedTotal)).toFixed(1)}%) over ${terms.length} terms ` +
    `(${terms.length - 15} words, 15 identifier parts)`,
);
if (misses.length) console.log(`  missed: ${misses.join(', ')}`);
store.close();
rmSync(home, { recursive: true, force: true });
