// Owns ranking files by how central they are: PageRank over a file graph whose edges are identifiers
// one file uses that another defines, plus resolved imports; the prior favours public surface and
// entry points. Tests, generated, vendored and dot-folder files always rank after the others. Each file's
// main exports come out with it: its top-level exported symbols, the names most other files use first.
import { posix } from 'node:path';
import type { CodeSymbol, FileMap } from './types.js';
import type { SourceReader } from './render-map.js';

export interface RankedFile {
  index: number;
  path: string;
  score: number;
  /** True for tests, generated, vendored and dot-folder files (ranked last). */
  peripheral: boolean;
  /** Top-level exported symbols, one per name: used by the most other files first, then types, then by line. */
  keySymbols: CodeSymbol[];
}

/** Among symbols of the same use, what a reader looks for first. */
const KIND_ORDER = ['class', 'interface', 'struct', 'trait', 'enum', 'function', 'type', 'constant', 'variable'];

function kindOrder(kind: CodeSymbol['kind']): number {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
}

/** A file's main exports, most used by other files first (`usedBy`: name → files using it). */
export function keySymbols(m: FileMap, usedBy: ReadonlyMap<string, number>): CodeSymbol[] {
  if (m.language === 'markdown') return [];
  const best = new Map<string, CodeSymbol>();
  for (const s of m.symbols) {
    if (s.parent || !s.exported || s.kind === 'heading' || s.kind === 'code-block') continue;
    const seen = best.get(s.name);
    if (!seen || kindOrder(s.kind) < kindOrder(seen.kind)) best.set(s.name, s);
  }
  // A plain lower-case word (`array`, `ipv4`) is found in other files as often by chance as by use.
  const use = (name: string): number => (usedBy.get(name) ?? 0) * (/^[a-z][a-z0-9]*$/.test(name) ? 0.1 : 1);
  return [...best.values()].sort(
    (a, b) => use(b.name) - use(a.name) || kindOrder(a.kind) - kindOrder(b.kind) || a.startLine - b.startLine,
  );
}

const IDENT_RE = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const TEST_RE = new RegExp(
  /(^|\/)(tests?|__tests__|spec|specs|testdata|test-data|fixtures?|__mocks__|e2e|benchmarks?)\/|/.source +
    /(^|\/)test[-_][^/]*$|(^|\/)[^/]*fixtures?[^/]*$|_test\.[a-z]+$|\.(test|spec)\.[a-z]+$|/.source +
    /(^|\/)conftest\.py$/.source,
  'i',
);
const VENDORED_RE = new RegExp(
  String.raw`(^|\/)(vendor|third_party|third-party|external|deps|docs?|examples?|samples?|scripts?|` +
    String.raw`website|site|bench|benchmarks?)\/`,
  'i',
);
const GENERATED_RE =
  /(\.min\.[a-z]+$|\.generated\.|\.pb\.go$|_pb2\.py$|\.g\.dart$|(^|\/)generated\/|\.d\.ts$|\.lock$|-lock\.json$)/i;
const DOT_DIR_RE = /(^|\/)\.[^/]+\//;
const ENTRY_RE = /(^|\/)(main|__main__|__init__|index|cli|app|mod|lib)\.[a-z]+$/i;
/** Kinds other files refer to by name; fields, locals and Markdown headings would only add noise. */
const DEFINING = new Set([
  'function',
  'class',
  'interface',
  'type',
  'enum',
  'struct',
  'union',
  'trait',
  'module',
  'namespace',
  'macro',
  'record',
  'constant',
  'variable',
]);
const MEMBER_DEFINING = new Set(['method', 'constructor']);

/** Names a file offers to others: exported, specific, top-level or methods of a concrete type. */
function definedNames(m: FileMap): Set<string> {
  const interfaces = new Set(m.symbols.filter((s) => s.kind === 'interface' || s.kind === 'trait').map((s) => s.name));
  const names = new Set<string>();
  for (const s of m.symbols) {
    if (!s.exported || s.name.length < 3 || GENERIC_NAMES.has(s.name)) continue;
    const ok = s.parent
      ? MEMBER_DEFINING.has(s.kind) && !interfaces.has(s.parent) && s.name !== 'constructor'
      : DEFINING.has(s.kind);
    if (ok) names.add(s.name);
  }
  return names;
}
/** Builtin type and keyword-like names: a file defining one is not what other files mean by it. */
const GENERIC_NAMES = new Set(
  (
    'number string boolean object symbol bigint undefined any unknown never void null true false this ' +
    'self super new func type interface class struct enum const let var def fn impl pub use mod len str ' +
    'int float bool list dict set map get put add run main init error err print println value values key ' +
    'keys data name path text result options config string_view size index item items file line lines ' +
    'node args kwargs'
  ).split(' '),
);
const DAMPING = 0.85;
const ITERATIONS = 40;
const PERIPHERAL_FACTOR = 0.05;

export function isPeripheral(path: string): boolean {
  return TEST_RE.test(path) || VENDORED_RE.test(path) || GENERATED_RE.test(path) || DOT_DIR_RE.test(path);
}

function stem(path: string): string {
  return path.replace(/\.[^./]+$/, '');
}

/** Files an import specifier can name: relative specifiers exactly, others by their last segment. */
function importTargets(
  from: string,
  spec: string,
  byStem: Map<string, number[]>,
  byBase: Map<string, number[]>,
): number[] {
  const clean = spec.replace(/^['"]|['"]$/g, '');
  if (clean.startsWith('./') || clean.startsWith('../')) {
    const target = stem(posix.normalize(posix.join(posix.dirname(from), clean)));
    return byStem.get(target) ?? byStem.get(`${target}/index`) ?? byStem.get(`${target}/__init__`) ?? [];
  }
  const dots = /^\.+/.exec(clean)?.[0].length ?? 0;
  if (dots > 0) {
    // A Python relative import: `.models` is a sibling module, `..util` one package up.
    if (clean.length === dots) return [];
    let base = posix.dirname(from);
    for (let i = 1; i < dots; i++) base = posix.dirname(base);
    const target = posix.join(base, ...clean.slice(dots).split('.'));
    return byStem.get(target) ?? byStem.get(`${target}/__init__`) ?? [];
  }
  const last = clean
    .split(/[/.:]+/)
    .filter(Boolean)
    .pop();
  const hits = last ? (byBase.get(last) ?? []) : [];
  return hits.length <= 3 ? hits : [];
}

/** Ranks `maps` most central first (deterministic: ties go by path). */
export function rankFiles(maps: readonly FileMap[], readSource: SourceReader): RankedFile[] {
  const n = maps.length;
  const peripheral = maps.map((m) => isPeripheral(m.path));
  const definers = new Map<string, number[]>();
  maps.forEach((m, i) => {
    for (const name of definedNames(m)) definers.set(name, [...(definers.get(name) ?? []), i]);
  });
  const byStem = new Map<string, number[]>();
  const byBase = new Map<string, number[]>();
  maps.forEach((m, i) => {
    const s = stem(m.path);
    byStem.set(s, [...(byStem.get(s) ?? []), i]);
    const base = posix.basename(s);
    byBase.set(base, [...(byBase.get(base) ?? []), i]);
  });

  const edges: Map<number, number>[] = maps.map(() => new Map());
  const usedBy = new Map<string, number>();
  const addEdge = (from: number, to: number, weight: number): void => {
    if (from !== to && weight > 0) edges[from]!.set(to, (edges[from]!.get(to) ?? 0) + weight);
  };
  maps.forEach((m, i) => {
    for (const spec of m.imports) for (const t of importTargets(m.path, spec, byStem, byBase)) addEdge(i, t, 1);
    if (m.fallback === 'binary' || m.fallback === 'too-large' || m.language === 'markdown') return;
    let text: string;
    try {
      text = readSource(m);
    } catch {
      return;
    }
    const uses = new Map<string, number>();
    for (const match of text.matchAll(IDENT_RE)) {
      const id = match[0];
      if (definers.has(id)) uses.set(id, (uses.get(id) ?? 0) + 1);
    }
    for (const [id, count] of uses) {
      const owners = definers.get(id)!;
      // Shared among the files defining the name, as its edges are.
      if (!owners.includes(i)) usedBy.set(id, (usedBy.get(id) ?? 0) + 1 / owners.length);
      // A plain lower-case word (`open`, `prompt`) is as likely someone else's name as this file's.
      const specific = /^[a-z]+$/.test(id) || id.startsWith('_') ? 0.1 : 1;
      const weight = (Math.sqrt(count) * specific * (owners.length > 5 ? 0.1 : 1)) / owners.length;
      for (const owner of owners) addEdge(i, owner, weight);
    }
  });

  const prior = maps.map((m, i) => {
    const exported = definedNames(m).size;
    return (
      (1 + 0.5 * Math.log2(1 + exported)) * (ENTRY_RE.test(m.path) ? 2 : 1) * (peripheral[i] ? PERIPHERAL_FACTOR : 1)
    );
  });
  const priorSum = prior.reduce((a, b) => a + b, 0) || 1;
  const personal = prior.map((p) => p / priorSum);
  const outWeight = edges.map((e) => [...e.values()].reduce((a, b) => a + b, 0));
  let rank = personal.slice();
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const next = personal.map((p) => (1 - DAMPING) * p);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      if (outWeight[i] === 0) {
        dangling += rank[i]!;
        continue;
      }
      for (const [to, w] of edges[i]!) next[to]! += (DAMPING * rank[i]! * w) / outWeight[i]!;
    }
    for (let i = 0; i < n; i++) next[i]! += DAMPING * dangling * personal[i]!;
    rank = next;
  }
  return maps
    .map((m, i) => ({
      index: i,
      path: m.path,
      score: rank[i]! * (peripheral[i] ? PERIPHERAL_FACTOR : 1),
      peripheral: peripheral[i]!,
      keySymbols: keySymbols(m, usedBy),
    }))
    .sort(
      (a, b) =>
        Number(a.peripheral) - Number(b.peripheral) ||
        b.score - a.score ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
}
