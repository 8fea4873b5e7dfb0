// Owns field selectors shared by `read --show/--hide` and `search --in`: parsing
// (`user, assistant, thinking, system, summary, noise, tool, tool:<Name>, tool:<Name>:input|result`,
// `*` for any tool name), matching a block, the more-specific-wins precedence, and SQL for search scope.
import { usageError } from '../../shared/errors.js';
import type { BlockField } from '../../shared/model.js';

export type Category = 'user' | 'assistant' | 'thinking' | 'system' | 'summary' | 'noise' | 'tool';
export type ToolPart = 'input' | 'result';

export interface Selector {
  category: Category;
  /** Tool name (case-insensitive), undefined = any tool. */
  tool?: string;
  part?: ToolPart;
  /** The selector as written. */
  raw: string;
}

/** What a block is, for matching selectors. */
export interface BlockTarget {
  field: BlockField;
  toolName: string | null;
  noise: boolean;
}

export type Visibility = 'show' | 'count' | 'hide';

const CATEGORIES: readonly Category[] = ['user', 'assistant', 'thinking', 'system', 'summary', 'noise', 'tool'];

function parseOne(raw: string): Selector {
  const parts = raw.split(':').map((p) => p.trim());
  const category = parts[0]!.toLowerCase() as Category;
  if (!CATEGORIES.includes(category)) {
    throw usageError(
      `unknown selector "${raw}": use ${CATEGORIES.join(', ')}, tool:<Name>, tool:<Name>:input or tool:<Name>:result`,
    );
  }
  if (category !== 'tool') {
    if (parts.length > 1) throw usageError(`selector "${raw}": only tool selectors take :<Name> and :input/:result`);
    return { category, raw };
  }
  if (parts.length > 3) throw usageError(`selector "${raw}": use tool:<Name>:input or tool:<Name>:result`);
  const sel: Selector = { category, raw };
  const name = parts[1];
  if (name !== undefined && name !== '' && name !== '*') sel.tool = name;
  const part = parts[2]?.toLowerCase();
  if (part !== undefined && part !== '') {
    if (part === 'input' || part === 'call') sel.part = 'input';
    else if (part === 'result' || part === 'output') sel.part = 'result';
    else throw usageError(`selector "${raw}": the third part must be input or result`);
  }
  return sel;
}

/** Parses comma-separated selector lists (each flag may be repeated). */
export function parseSelectors(values: string[] | string | undefined): Selector[] {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  return list
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseOne);
}

function categoryOf(target: BlockTarget): Category {
  if (target.noise) return 'noise';
  if (target.field === 'tool_input' || target.field === 'tool_output') return 'tool';
  return target.field;
}

export function matches(sel: Selector, target: BlockTarget): boolean {
  if (sel.category !== categoryOf(target)) return false;
  if (sel.category !== 'tool') return true;
  if (sel.tool !== undefined && sel.tool.toLowerCase() !== (target.toolName ?? '').toLowerCase()) return false;
  if (sel.part === 'input' && target.field !== 'tool_input') return false;
  if (sel.part === 'result' && target.field !== 'tool_output') return false;
  return true;
}

/** tool:<Name>:part 4 > tool:<Name> 3 > tool:*:part 2 > tool / user / ... 1. */
export function specificity(sel: Selector): number {
  if (sel.category !== 'tool') return 1;
  return 1 + (sel.tool !== undefined ? 2 : 0) + (sel.part !== undefined ? 1 : 0);
}

/** Default view of `read`: text shown, thinking as a word count, tool calls as one line, results and noise hidden. */
export function defaultVisibility(target: BlockTarget): Visibility {
  if (target.noise) return 'hide';
  if (target.field === 'thinking') return 'count';
  if (target.field === 'tool_output') return 'hide';
  return 'show';
}

/** The most specific matching selector decides; on a tie --show wins; no match → the default. */
export function resolveVisibility(target: BlockTarget, show: Selector[], hide: Selector[]): Visibility {
  let best = 0;
  let decision: Visibility | undefined;
  for (const sel of hide) {
    if (!matches(sel, target)) continue;
    const s = specificity(sel);
    if (s > best) {
      best = s;
      decision = 'hide';
    }
  }
  for (const sel of show) {
    if (!matches(sel, target)) continue;
    const s = specificity(sel);
    if (s >= best) {
      best = s;
      decision = 'show';
    }
  }
  return decision ?? defaultVisibility(target);
}

/** A tool block's tool: outputs carry their call's name (resolved at ingest, see session-writer.ts). */
const TOOL_NAME_SQL = 'b.tool_name';

/**
 * Noise searched by default, at low weight: what the person worked on (IDE notices, Codex shell commands,
 * files a Gemini prompt expanded) or was told (Codex review findings). Other noise (wrappers, reminders,
 * hook output, injected instructions) is searched only with --in noise.
 */
export const SEARCHED_NOISE = [
  'ide_opened_file',
  'ide_selection',
  'user_shell_command',
  'user_action',
  'expanded_content',
] as const;
export const SEARCHED_NOISE_SQL = SEARCHED_NOISE.map((n) => `'${n}'`).join(', ');

/**
 * How much a block's BM25 score counts (SQL over alias `b`): tool results half; system text (injected
 * instructions, permission and sandbox boilerplate) a quarter; searched noise a fifth.
 */
export function blockWeightSql(b: string): string {
  return (
    `(CASE WHEN ${b}.noise IS NOT NULL THEN 0.2 WHEN ${b}.field = 'tool_output' THEN 0.5 WHEN ${b}.field = ` +
    `'system' THEN 0.25 ELSE 1.0 END)`
  );
}

/** SQL condition (over alias `b` = blocks) for the union of `selectors`; default: everything but noise. */
export function selectorsToSql(selectors: Selector[]): { sql: string; params: string[] } {
  if (selectors.length === 0) return { sql: `(b.noise IS NULL OR b.noise IN (${SEARCHED_NOISE_SQL}))`, params: [] };
  const clauses: string[] = [];
  const params: string[] = [];
  for (const sel of selectors) {
    if (sel.category === 'noise') clauses.push('b.noise IS NOT NULL');
    else if (sel.category !== 'tool') clauses.push(`(b.field = '${sel.category}' AND b.noise IS NULL)`);
    else {
      const field =
        sel.part === 'input'
          ? "b.field = 'tool_input'"
          : sel.part === 'result'
            ? "b.field = 'tool_output'"
            : "b.field IN ('tool_input', 'tool_output')";
      if (sel.tool === undefined) clauses.push(`(${field})`);
      else {
        clauses.push(`(${field} AND ${TOOL_NAME_SQL} = ? COLLATE NOCASE)`);
        params.push(sel.tool);
      }
    }
  }
  return { sql: `(${clauses.join(' OR ')})`, params };
}
