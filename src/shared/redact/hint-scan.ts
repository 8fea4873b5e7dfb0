// Owns the redaction pre-filter: one pass over a text that says which rules can match it, from the
// keywords (hints) each rule needs. Most texts hold no hint and cost this one pass only.

/**
 * `String.prototype.charCodeAt` called as `charCodeAt.call(text, i)`: `text.charCodeAt(i)` turns
 * megamorphic over strings of different internal shapes (JSON.parse, slices, concatenations) and then
 * costs a hash probe per character; a module constant is called directly whatever the shape.
 */
const charCodeAt: (this: string, index: number) => number = String.prototype.charCodeAt;
const FOLD = new Uint8Array(128).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c));

interface Candidate {
  hint: string;
  /** Offset in the hint of the character pair that selects it (0 or 1). */
  offset: number;
  rules: number[];
}

export interface HintScanner {
  /** Indices of the rules one of whose hints occurs in `text` (any case), or null when none does. */
  scan(text: string): number[] | null;
}

/**
 * The scan looks at every other position: the two characters there select the few hints whose first
 * or second pair they are, each then compared whole. Every hint has 3+ characters, so wherever it
 * starts, one of those pairs sits at a looked-at position.
 */
export function createHintScanner(hintsByRule: readonly (readonly string[])[]): HintScanner {
  const byPair = new Map<number, Map<string, Candidate>>();
  hintsByRule.forEach((hints, rule) => {
    for (const hint of hints) {
      if (hint.length < 3 || hint !== hint.toLowerCase() || /[^\x20-\x7e]/.test(hint)) throw new Error(`redaction hint ${hint}: 3+ lower-case ASCII characters`);
      for (const offset of [0, 1]) {
        const pair = (hint.charCodeAt(offset) << 7) | hint.charCodeAt(offset + 1);
        const candidates = byPair.get(pair) ?? new Map<string, Candidate>();
        const candidate = candidates.get(`${offset}${hint}`) ?? { hint, offset, rules: [] };
        if (!candidate.rules.includes(rule)) candidate.rules.push(rule);
        candidates.set(`${offset}${hint}`, candidate);
        byPair.set(pair, candidates);
      }
    }
  });
  // PAIR_SLOT[c0 << 7 | c1]: 0 when the pair starts no candidate, else 1 + the index of the first of its
  // candidates in the flat arrays below (CANDIDATE_END marks the last).
  const pairSlot = new Uint16Array(128 * 128);
  const candidateHint: string[] = [];
  const candidateOffset: number[] = [];
  const candidateEnd: number[] = [];
  const candidateRules: number[][] = [];
  const cases = (c: number): number[] => (c >= 97 && c <= 122 ? [c, c - 32] : [c]);
  for (const [pair, candidates] of byPair) {
    const first = candidateHint.length;
    for (const { hint, offset, rules } of candidates.values()) {
      candidateHint.push(hint);
      candidateOffset.push(offset);
      candidateRules.push(rules);
    }
    for (let c = first; c < candidateHint.length; c++) candidateEnd.push(candidateHint.length);
    for (const c0 of cases(pair >> 7)) for (const c1 of cases(pair & 127)) pairSlot[(c0 << 7) | c1] = first + 1;
  }
  const ruleCount = hintsByRule.length;

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
      let seen: Uint8Array | null = null;
      let found: number[] | null = null;
      const last = text.length - 1;
      for (let i = 0; i < last; i += 2) {
        const c0 = charCodeAt.call(text, i);
        const c1 = charCodeAt.call(text, i + 1);
        if ((c0 | c1) >= 128) continue;
        const slot = pairSlot[(c0 << 7) | c1]!;
        if (slot === 0) continue;
        for (let c = slot - 1, end = candidateEnd[c]!; c < end; c++) {
          if (!hintAt(text, i - candidateOffset[c]!, candidateHint[c]!)) continue;
          seen ??= new Uint8Array(ruleCount);
          for (const rule of candidateRules[c]!) {
            if (seen[rule]) continue;
            seen[rule] = 1;
            (found ??= []).push(rule);
          }
        }
      }
      return found === null ? null : found.sort((a, b) => a - b);
    },
  };
}
