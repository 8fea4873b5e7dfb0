// Owns the extractive provider's signals: @/ markers (history-index spec syntax and priorities), cue
// categories (decisions, bugs, breaking changes, security, ...) that drive the importance score and
// the category topics.

export interface Marker {
  type: string;
  content: string;
  priority: number;
}

/** The history-index spec's default marker priorities (10 = most important). */
const MARKER_PRIORITIES: Record<string, number> = {
  decision: 10,
  breaking: 10,
  security: 9,
  bug: 8,
  api: 7,
  pattern: 6,
  perf: 5,
  todo: 4,
  ref: 3,
};

export function extractMarkers(content: string): Marker[] {
  const markers: Marker[] = [];
  for (const m of content.matchAll(/@\/([a-z]+):\s*(.+?)(?:\n|$)/gi)) {
    const type = m[1]!.toLowerCase();
    markers.push({ type, content: m[2]!.trim(), priority: MARKER_PRIORITIES[type] ?? 3 });
  }
  return markers;
}

export interface Signal {
  /** Category topic tag. */
  topic: string;
  /** Importance this signal implies on its own (0..1). */
  importance: number;
  pattern: RegExp;
}

export const SIGNALS: readonly Signal[] = [
  {
    topic: 'breaking-change',
    importance: 0.95,
    pattern: /\bbreaking[ -]changes?\b|\bBREAKING\b|\bbackwards?[- ]incompatible\b/,
  },
  {
    topic: 'security',
    importance: 0.9,
    pattern: /\b(?:security|vulnerab\w*|CVE-\d+|XSS|CSRF|injection|secrets? (?:leak|exposed)|credential\w*)\b/i,
  },
  {
    topic: 'architecture',
    importance: 0.8,
    pattern:
      /\b(?:decided|we decide|decision|architectur\w*|trade-?offs?|design choice|settled on|going with|chose|opted)\b/i,
  },
  { topic: 'revert', importance: 0.7, pattern: /\b(?:revert(?:ed|ing)?|roll(?:ed)? back|rollback)\b/i },
  {
    topic: 'bug-fix',
    importance: 0.65,
    pattern: new RegExp(
      String.raw`\b(?:bug|error|exception|traceback|stack trace|crash\w*|fail(?:s|ed|ing|ure)?|broken|` +
        String.raw`regression|root cause|fix(?:ed|es)?)\b`,
      'i',
    ),
  },
  { topic: 'data-migration', importance: 0.65, pattern: /\b(?:migrations?|schema change|data loss)\b/i },
  {
    topic: 'performance',
    importance: 0.6,
    pattern: /\b(?:performance|latency|throughput|slow(?:er)?|faster|memory leak|optimi[sz]\w*|benchmark\w*)\b/i,
  },
  {
    topic: 'refactoring',
    importance: 0.5,
    pattern: /\b(?:refactor\w*|restructur\w*|clean(?:ed)? up|renam(?:e|ed|ing))\b/i,
  },
  { topic: 'testing', importance: 0.5, pattern: /\b(?:tests?|testing|vitest|jest|pytest|assert\w*|coverage)\b/i },
  {
    topic: 'feature',
    importance: 0.5,
    pattern: /\b(?:implement\w*|add(?:ed|s)? (?:a|an|the|support)|new feature|creat(?:e|ed|ing))\b/i,
  },
  {
    topic: 'dependencies',
    importance: 0.45,
    pattern: /\b(?:npm install|pip install|dependenc\w+|upgrade[ds]?|package\.json|lockfile)\b/i,
  },
  {
    topic: 'configuration',
    importance: 0.4,
    pattern: /\b(?:config(?:uration)?|settings|env(?:ironment)? variables?|\.env)\b/i,
  },
  { topic: 'documentation', importance: 0.25, pattern: /\b(?:docs?|documentation|readme|comments?|typos?)\b/i },
];

export interface SignalHit {
  signal: Signal;
  count: number;
}

export function detectSignals(content: string): SignalHit[] {
  const hits: SignalHit[] = [];
  for (const signal of SIGNALS) {
    const global = new RegExp(
      signal.pattern.source,
      signal.pattern.flags.includes('g') ? signal.pattern.flags : signal.pattern.flags + 'g',
    );
    const count = [...content.matchAll(global)].length;
    if (count > 0) hits.push({ signal, count });
  }
  return hits;
}

/**
 * Importance 0..1: the strongest marker (priority / 10) or signal, plus a little for each further
 * signal category, damped for tiny segments; 0.3 (routine) when nothing stands out.
 */
export function importanceScore(
  content: string,
  markers: readonly Marker[],
  hits: readonly SignalHit[],
  wordCount: number,
): number {
  const markerScore = markers.reduce((max, m) => Math.max(max, m.priority / 10), 0);
  // A signal mentioned once in a long segment is weak evidence; require density for the full score.
  const signalScores = hits.map((h) => h.signal.importance * Math.min(1, 0.6 + 0.2 * h.count));
  const strongest = Math.max(0.3, markerScore, ...signalScores);
  const breadth = Math.max(0, hits.filter((h) => h.signal.importance >= 0.5).length - 1) * 0.03;
  let score = Math.min(1, strongest + breadth);
  if (markers.length === 0 && wordCount < 40) score = Math.min(score, 0.35);
  if (/^\s*$/.test(content)) score = 0;
  return Math.round(score * 100) / 100;
}
