// Owns what tool calls add up to in a session's statistics (shell calls, web fetches and searches, lines
// and files edited, commit commands). Pure, so the ingest worker thread counts the calls it has just parsed.
import { callEffects, type FileEdit } from './edit-stats.js';
import { classifyTool } from './tool-classes.js';

export interface CallStats {
  bashCalls: number;
  webFetches: number;
  webSearches: number;
  linesAdded: number;
  linesRemoved: number;
  commits: number;
  /** path → work (lines added + removed, at least 1 per edit). */
  files: Record<string, number>;
}

export function emptyCallStats(): CallStats {
  // No prototype: a file named `constructor` or `toString` is a path like any other.
  return {
    bashCalls: 0,
    webFetches: 0,
    webSearches: 0,
    linesAdded: 0,
    linesRemoved: 0,
    commits: 0,
    files: Object.create(null) as Record<string, number>,
  };
}

/** Counts one tool call, given its stored input as parsed back (or the text when it has no input). */
export function addCall(stats: CallStats, toolName: string | null, input: unknown): void {
  const cls = classifyTool(toolName);
  if (cls === 'bash') stats.bashCalls++;
  else if (cls === 'fetch') stats.webFetches++;
  else if (cls === 'search') stats.webSearches++;
  const effects = callEffects(toolName, input);
  stats.commits += effects.commits;
  addEdits(stats, effects.edits);
}

/** Adds `from` into `into`. */
export function mergeCallStats(into: CallStats, from: CallStats): void {
  into.bashCalls += from.bashCalls;
  into.webFetches += from.webFetches;
  into.webSearches += from.webSearches;
  into.linesAdded += from.linesAdded;
  into.linesRemoved += from.linesRemoved;
  into.commits += from.commits;
  for (const [path, work] of Object.entries(from.files)) into.files[path] = (into.files[path] ?? 0) + work;
}

export function addEdits(stats: CallStats, edits: FileEdit[]): void {
  for (const e of edits) {
    stats.linesAdded += e.added;
    stats.linesRemoved += e.removed;
    stats.files[e.path] = (stats.files[e.path] ?? 0) + Math.max(1, e.added + e.removed);
  }
}

/**
 * False for text no person typed: a harness wrapper (`<tag>…`), JSON, Aider's `<blank>`. Text repeating
 * the injected instructions of its session is ruled out by the caller.
 */
export function isTypedText(text: string): boolean {
  const t = text.trim();
  if (t === '' || t === '<blank>' || /^<[\w-]+(?:\s[^<>]*)?>/.test(t)) return false;
  if (t.startsWith('{') || t.startsWith('[{') || t.startsWith('["')) {
    try {
      JSON.parse(t);
      return false;
    } catch {
      return true;
    }
  }
  return true;
}

/** JSON text parsed, or the text itself when it is not JSON. */
export function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
