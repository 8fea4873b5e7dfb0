// Reproducible benchmark corpus: Claude Code JSONL sessions built by resampling the real fixture
// records (../shared/fixtures/real/claude-code) with fresh ids and timestamps, from a seeded PRNG.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = resolve(here, '../../shared/fixtures/real');

/** mulberry32: small, fast, seeded. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.jsonl') && !name.includes('history')) out.push(path);
  }
  return out;
}

/** Loads the fixture sessions as arrays of parsed records (user/assistant/system only). */
export function loadFixtureSessions() {
  const sessions = [];
  for (const file of walk(join(FIXTURES, 'claude-code'))) {
    const records = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line);
        if (r && (r.type === 'user' || r.type === 'assistant' || r.type === 'system')) records.push(r);
      } catch {}
    }
    if (records.length > 0) sessions.push(records);
  }
  return sessions;
}

function hex(rand, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}
const uuid = (rand) => `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-a${hex(rand, 3)}-${hex(rand, 12)}`;

/** Re-ids one fixture session: new session id, uuids, message ids and a fresh clock. */
function resample(records, rand, startMs, maxRecords) {
  const sessionId = uuid(rand);
  const ids = new Map();
  const map = (id) => {
    if (id == null) return id;
    if (!ids.has(id)) ids.set(id, uuid(rand));
    return ids.get(id);
  };
  const msgIds = new Map();
  let clock = startMs;
  const first = Math.floor(rand() * Math.max(1, records.length - maxRecords));
  const lines = [];
  for (const r of records.slice(first, first + maxRecords)) {
    clock += 1000 + Math.floor(rand() * 20000);
    const copy = {
      ...r,
      sessionId,
      uuid: map(r.uuid),
      parentUuid: map(r.parentUuid),
      timestamp: new Date(clock).toISOString(),
    };
    if (r.type === 'assistant' && r.message && typeof r.message === 'object') {
      const mid = r.message.id;
      if (!msgIds.has(mid)) msgIds.set(mid, `msg_${hex(rand, 24)}`);
      copy.message = { ...r.message, id: msgIds.get(mid) };
    }
    delete copy.agentId;
    copy.isSidechain = false;
    lines.push(JSON.stringify(copy));
  }
  return { sessionId, text: lines.join('\n') + '\n' };
}

/**
 * Writes about `megabytes` MB of sessions into `root/projects/<slug>/` folders (10 projects) and
 * returns {files, bytes}. `maxRecords` bounds records per session (smaller → more, smaller files).
 */
export function generateClaudeCorpus(
  root,
  { megabytes, seed = 42, maxRecords = 400, sessions: wanted, startMs = Date.UTC(2025, 0, 1) } = {},
) {
  const fixtures = loadFixtureSessions();
  const rand = prng(seed);
  const target = megabytes * 1e6;
  let bytes = 0;
  let files = 0;
  let clock = startMs;
  while (wanted ? files < wanted : bytes < target) {
    const source = fixtures[Math.floor(rand() * fixtures.length)];
    const { sessionId, text } = resample(source, rand, clock, maxRecords);
    clock += 3600_000;
    const dir = join(root, 'projects', `-home-bench-project-${files % 10}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${sessionId}.jsonl`), text);
    bytes += Buffer.byteLength(text);
    files++;
  }
  return { files, bytes };
}
