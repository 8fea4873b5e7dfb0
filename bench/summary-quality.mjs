// Summary quality benchmark for the history index with the offline extractive provider, over the real
// fixtures: both Puffin histories (file path) and the other agents' sessions (store path). Reports the
// share of summaries leaking a prompt header or id, the share quoting text found in ≥ 3 segments, the
// importance histogram, and topics that tag more than half of the segments.
// Usage: node bench/summary-quality.mjs [--show N]   (N: print N summaries next to their sources;
// STRATA_FIXTURES overrides the fixture folder, ../shared/fixtures/real by default)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES =
  process.env.STRATA_FIXTURES ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'fixtures', 'real');
const PUFFIN = [
  join(FIXTURES, 'puffin/jdubray-cosa/history.early.json'),
  join(FIXTURES, 'puffin/jdubray-puffin-todo-list/history.json'),
];
const STORE_AGENTS = ['claude-code', 'codex', 'gemini', 'opencode', 'aider'];
const HEADER_RE = new RegExp(
  /###\s*Prompt|\bPrompt (?=[0-9a-z-]*\d)[0-9a-z-]{8,}|\bBranch: |\(\d{4}-\d\d-\d\dT\d\d:\d\d|/.source +
    /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{12,}\b/.source,
  'i',
);
/** A segment holding a usage-limit reply or a leaked system prompt. */
const NO_WORK_RE = /usage limit reached|limit will reset|summarize this part of a conversation/i;
const ID_TOPIC_RE = /^(?=.*\d)[0-9a-f-]{4,}$|^[0-9a-f]{8}$/i;

/** Lowercase, Markdown emphasis and code marks removed, whitespace collapsed. */
const norm = (text) =>
  text
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** Sentences of a summary long enough to count as a quote (the cut mark "…" removed). */
function quotes(summary) {
  return summary
    .split(/(?<=[.!?])\s+/)
    .map((s) => norm(s.replace(/…$/, '').replace(/[.!?]$/, '')))
    .map((s) => s.replace(/^(?:decision|bug|todo|api|perf|security|pattern|breaking|ref): /, ''))
    .filter((s) => s.length >= 30);
}

function turnText(p) {
  return norm(`${p.content}\n${p.response?.content ?? ''}`);
}

async function indexOf(mod, source, out) {
  const { generateHistoryIndex } = mod.hi;
  const { LlmRunner, createExtractiveProvider } = mod.llm;
  const result = await generateHistoryIndex({
    source,
    outputPath: out,
    runner: new LlmRunner({ provider: createExtractiveProvider() }),
    full: true,
  });
  return result.index;
}

function textsFromPuffin(path) {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map();
  for (const branch of Object.values(doc.branches ?? {}))
    for (const p of branch.prompts ?? []) byId.set(p.id, turnText(p));
  return byId;
}

function measure(name, index, texts, show) {
  const segs = index.segments;
  const segText = segs.map((s) => s.promptIds.map((id) => texts.get(id) ?? '').join('\n'));
  let leaks = 0;
  let repeated = 0;
  let idTopics = 0;
  const examples = [];
  for (const [i, s] of segs.entries()) {
    if (HEADER_RE.test(s.summary)) {
      leaks++;
      if (examples.filter((e) => e.startsWith('leak')).length < 3) examples.push(`leak: ${s.summary.slice(0, 160)}`);
    }
    const q = quotes(s.summary);
    if (q.some((sentence) => segText.filter((t) => t.includes(sentence)).length >= 3)) {
      repeated++;
      if (examples.filter((e) => e.startsWith('repeated')).length < 3)
        examples.push(`repeated: ${s.summary.slice(0, 160)}`);
    }
    if (s.topics.some((t) => ID_TOPIC_RE.test(t))) idTopics++;
    void i;
  }
  const hist = new Array(10).fill(0);
  for (const s of segs) hist[Math.min(9, Math.floor(s.importanceScore * 10))]++;
  const topicCount = new Map();
  for (const s of segs) for (const t of new Set(s.topics)) topicCount.set(t, (topicCount.get(t) ?? 0) + 1);
  const broad = [...topicCount]
    .filter(([, n]) => segs.length >= 4 && n > segs.length / 2)
    .map(([t, n]) => `${t} (${n})`);
  const pct = (n) => `${n}/${segs.length} (${segs.length ? Math.round((100 * n) / segs.length) : 0}%)`;
  const top = segs.filter((s) => s.importanceScore >= 0.99).length;
  const values = new Map();
  for (const s of segs) values.set(s.importanceScore, (values.get(s.importanceScore) ?? 0) + 1);
  const [tieValue, tie] = [...values].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  console.log(`${name}: ${segs.length} segments`);
  console.log(
    `  header/id in summary: ${pct(leaks)}   quoting text of ≥3 segments: ${pct(repeated)}   id-like topic: ` +
      `${pct(idTopics)}`,
  );
  console.log(`  importance histogram [0.0-0.1 … 0.9-1.0]: ${hist.join(' ')}   ≥0.99: ${pct(top)}`);
  console.log(`  most shared importance value: ${tieValue} on ${pct(tie)} (target ≤ 25%)`);
  const noWork = segs.filter((s) => NO_WORK_RE.test(segText[segs.indexOf(s)]));
  const asWork = noWork.filter((s) => !s.summary.startsWith('No work recorded')).length;
  const leads = segs.filter((s, i) => {
    const first = norm(s.summary.split(/(?<=[.!?])\s+/)[0] ?? '');
    return first.length >= 20 && segText[i].startsWith(first.replace(/[.!?]$/, '').slice(0, 60));
  }).length;
  console.log(
    `  summary opening with the prompt verbatim: ${pct(leads)}   usage-limit/leaked-prompt segments summarised as ` +
      `work: ${asWork}/${noWork.length}`,
  );
  console.log(`  topics on more than half of the segments: ${broad.length ? broad.join(', ') : 'none'}`);
  for (const e of examples) console.log(`    ${e}`);
  for (const [i, s] of segs.slice(0, show).entries()) {
    console.log(
      `  --- segment ${i + 1} (${s.promptIds.length} prompts, importance ${s.importanceScore}) topics: ` +
        `${s.topics.join(', ')}`,
    );
    console.log(`  summary: ${s.summary}`);
    console.log(`  source:  ${segText[i].slice(0, 600)}`);
  }
  return { segments: segs.length, leaks, repeated, idTopics, top, leads, tie };
}

async function main() {
  const showAt = process.argv.indexOf('--show');
  const show = showAt > 0 ? Number(process.argv[showAt + 1] ?? 5) : 0;
  const mod = {
    hi: await import('../dist/core/history-index/index.js'),
    llm: await import('../dist/core/llm/index.js'),
  };
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-summary-'));
  const totals = { segments: 0, leaks: 0, repeated: 0, idTopics: 0, top: 0, leads: 0, tie: 0 };
  const add = (r) => Object.keys(totals).forEach((k) => (totals[k] += r[k]));
  try {
    for (const [i, path] of PUFFIN.entries()) {
      const index = await indexOf(mod, { kind: 'puffin-file', path }, join(dir, `puffin-${i}.index.json`));
      add(measure(`puffin ${path.split('/').slice(-2).join('/')}`, index, textsFromPuffin(path), show));
    }
    const { openStore } = await import('../dist/store/db.js');
    const { ingest } = await import('../dist/core/ingest/ingest.js');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({
        store,
        paths: STORE_AGENTS.map((a) => join(FIXTURES, a)),
        env: { HOME: dir },
        lockPath: join(dir, 'lock'),
      });
      const ids = store.db
        .prepare("SELECT external_id FROM sessions WHERE relation IS NULL AND agent != 'puffin' ORDER BY id")
        .all()
        .map((r) => r.external_id);
      const source = { kind: 'store', store, selection: { sessions: ids } };
      const index = await indexOf(mod, source, join(dir, 'store.index.json'));
      const history = mod.hi.parseStoreHistory(store.db, store.path, { sessions: ids });
      const texts = new Map();
      for (const prompts of history.branches.values()) for (const p of prompts) texts.set(p.id, turnText(p));
      add(measure(`store (${STORE_AGENTS.join(', ')}: ${ids.length} sessions)`, index, texts, show));
    } finally {
      store.close();
    }
    const pct = (n) => `${totals.segments ? ((100 * n) / totals.segments).toFixed(1) : 0}%`;
    console.log(
      `all: ${totals.segments} segments; header/id ${pct(totals.leaks)} (target 0), repeated text ` +
        `${pct(totals.repeated)} (target 0), id-like topics ${pct(totals.idTopics)}, importance ≥0.99 ` +
        `${pct(totals.top)}, opening with the prompt ${pct(totals.leads)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
