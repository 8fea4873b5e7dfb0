// Owns the redaction pre-filter: one pass over a text that says which rules can match it, from the
// keywords (hints) each rule needs. Most texts hold no hint and cost this one pass only.

/**
 * `String.prototype.charCodeAt` called as `charCodeAt.call(text, i)`: `text.charCodeAt(i)` turns
 * megamorphic over strings of different internal shapes (JSON.parse, slices, concatenations) and then
 * costs a hash probe per character; a module constant is called directly whatever the shape.
 */
const charCodeAt: (this: string, index: number) => number = String.prototype.charCodeAt;
const FOLD = new Uint8Array(128).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c));

/**
 * The 150 most frequent letter pairs of agent transcripts (the real fixtures), most frequent first. A
 * hint is looked for by two of its pairs that are rare: symbols first, then letters not in this list.
 */
const FREQUENT_PAIRS = (
  'er in te on re st es de se or at en co th le nt an ti to me it he ng ar al ro ed el ma as io ri nd ex di us ch ' +
  'om et la ta id ra tr li ss ou ne is fi ec il ut ea ct ai ge od ns fo cl si ve am lo ac mp pr na ce ll ts ol em ' +
  'ca ad pa ap pe ur ag ha pl da un mo po rs aa do ic no nc rt au ho ck ul oc ke hi mi ab ow xt im iv be ue if ty ' +
  'tu ie ep rd ig wi sc so pt op cr ry ef tt rc va bl sh mm gi ba rm gr ls ot fa rn ee ay ni sa ru rr ev cu ir sp ' +
  'su bo'
).split(' ');
const PAIR_COST = new Map(FREQUENT_PAIRS.map((pair, rank) => [pair, 1 + FREQUENT_PAIRS.length - rank]));

/**
 * Where in `hint` the two consecutive character pairs that select it start: wherever the hint sits,
 * one of them starts at a position the scan looks at. The least frequent window is chosen, so fewer
 * texts cost a comparison.
 */
function quietestWindow(hint: string): number {
  const cost = (k: number): number => {
    const pair = hint.slice(k, k + 2);
    return /[^a-z]/.test(pair) ? 0 : (PAIR_COST.get(pair) ?? 1);
  };
  let best = 0;
  let bestCost = Infinity;
  for (let k = 0; k + 2 < hint.length; k++) {
    const c = cost(k) + cost(k + 1);
    if (c < bestCost) [best, bestCost] = [k, c];
  }
  return best;
}

interface Candidate {
  hint: string;
  /** Offset in the hint of the character pair that selects it. */
  offset: number;
  rules: number[];
}

export interface HintScanner {
  /** Indices of the rules one of whose hints occurs in `text` (any case), or null when none does. */
  scan(text: string): number[] | null;
}

/**
 * The scan looks at every other position: the two characters there select the few hints one of whose
 * two chosen pairs (see quietestWindow) they are, each then compared whole. Every hint has 3+
 * characters, so wherever it starts, one of those pairs sits at a looked-at position.
 */
export function createHintScanner(hintsByRule: readonly (readonly string[])[]): HintScanner {
  const byPair = new Map<number, Map<string, Candidate>>();
  hintsByRule.forEach((hints, rule) => {
    for (const hint of hints) {
      if (hint.length < 3 || hint !== hint.toLowerCase() || /[^\x20-\x7e]/.test(hint))
        throw new Error(`redaction hint ${hint}: 3+ lower-case ASCII characters`);
      const first = quietestWindow(hint);
      for (const offset of [first, first + 1]) {
        const pair = (hint.charCodeAt(offset) << 7) | hint.charCodeAt(offset + 1);
        const candidates = byPair.get(pair) ?? new Map<string, Candidate>();
        const candidate = candidates.get(`${offset}${hint}`) ?? { hint, offset, rules: [] };
        if (!candidate.rules.includes(rule)) candidate.rules.push(rule);
        candidates.set(`${offset}${hint}`, candidate);
        byPair.set(pair, candidates);
      }
    }
  });
  // pairSlot[c0 << 7 | c1]: 0 when the pair selects no candidate, else 1 + the index of the first of its
  // candidates in the flat arrays below (candidateEnd marks the last). A candidate's rules are a 64-bit
  // mask in two 32-bit halves, so "all its rules are selected already" is two integer tests.
  if (hintsByRule.length > 64) throw new Error('redaction hints: at most 64 rules');
  const pairSlot = new Uint16Array(128 * 128);
  const candidateHint: string[] = [];
  const offsets: number[] = [];
  const ends: number[] = [];
  const lows: number[] = [];
  const highs: number[] = [];
  const cases = (c: number): number[] => (c >= 97 && c <= 122 ? [c, c - 32] : [c]);
  for (const [pair, candidates] of byPair) {
    const first = candidateHint.length;
    for (const { hint, offset, rules } of candidates.values()) {
      candidateHint.push(hint);
      offsets.push(offset);
      lows.push(rules.filter((r) => r < 32).reduce((m, r) => m | (1 << r), 0));
      highs.push(rules.filter((r) => r >= 32).reduce((m, r) => m | (1 << (r - 32)), 0));
    }
    for (let c = first; c < candidateHint.length; c++) ends.push(candidateHint.length);
    for (const c0 of cases(pair >> 7)) for (const c1 of cases(pair & 127)) pairSlot[(c0 << 7) | c1] = first + 1;
  }
  const candidateOffset = Int32Array.from(offsets);
  const candidateEnd = Int32Array.from(ends);
  const candidateLow = Int32Array.from(lows);
  const candidateHigh = Int32Array.from(highs);

  function hintAt(text: string, at: number, hint: string): boolean {
    if (at < 0 || at + hint.length > text.length) return false;
    for (let j = 0; j < hint.length; j++) {
      const c = charCodeAt.call(text, at + j);
      if (c >= 128 || FOLD[c] !== hint.charCodeAt(j)) return false;
    }
    return true;
  }

  return {
    scan(text: string): number[] | null {
      let low = 0;
      let high = 0;
      const last = text.length - 1;
      for (let i = 0; i < last; i += 2) {
        const c0 = charCodeAt.call(text, i);
        const c1 = charCodeAt.call(text, i + 1);
        if ((c0 | c1) >= 128) continue;
        const slot = pairSlot[(c0 << 7) | c1]!;
        if (slot === 0) continue;
        for (let c = slot - 1, end = candidateEnd[c]!; c < end; c++) {
          const l = candidateLow[c]!;
          const h = candidateHigh[c]!;
          // A hint whose rules are all selected already is not compared again (`auth` occurs often).
          if ((low & l) === l && (high & h) === h) continue;
          if (!hintAt(text, i - candidateOffset[c]!, candidateHint[c]!)) continue;
          low |= l;
          high |= h;
        }
      }
      if (low === 0 && high === 0) return null;
      const found: number[] = [];
      for (let r = 0; r < 32; r++) if (low & (1 << r)) found.push(r);
      for (let r = 0; r < 32; r++) if (high & (1 << r)) found.push(r + 32);
      return found;
    },
  };
}
