// Owns the paragraph fallback: cutting a section longer than max_chars into parts at paragraph
// boundaries, then at lines outside fences, and inside a fence only when one fence alone is too long.
import { isBlankOutsideFence, type LineInfo } from './markdown-lines.js';
import { countChars } from './text-utils.js';

export interface LineRange {
  start: number;
  end: number;
}

interface Ctx {
  lines: readonly string[];
  info: readonly LineInfo[];
  /** prefix[i] = code points in lines[0..i-1] (without newlines). */
  prefix: number[];
  maxChars: number;
}

function rangeChars(ctx: Ctx, r: LineRange): number {
  return (ctx.prefix[r.end + 1] ?? 0) - (ctx.prefix[r.start] ?? 0) + (r.end - r.start);
}

/** Level 1 units: paragraphs (runs of lines between blank lines outside fences). */
function paragraphs(ctx: Ctx, r: LineRange): LineRange[] {
  const out: LineRange[] = [];
  let start = -1;
  for (let i = r.start; i <= r.end; i++) {
    const blank = isBlankOutsideFence(ctx.lines[i] ?? '', ctx.info[i] as LineInfo);
    if (!blank && start < 0) start = i;
    if (blank && start >= 0) {
      out.push({ start, end: i - 1 });
      start = -1;
    }
  }
  if (start >= 0) out.push({ start, end: r.end });
  return out;
}

/** Level 2 units: whole fences and single lines outside fences. */
function fencesAndLines(ctx: Ctx, r: LineRange): LineRange[] {
  const out: LineRange[] = [];
  let i = r.start;
  while (i <= r.end) {
    if (!(ctx.info[i] as LineInfo).inFence) {
      out.push({ start: i, end: i });
      i++;
      continue;
    }
    // A fence runs from its opener to its closer: consecutive inFence lines, ended by a closer.
    let j = i;
    while (j + 1 <= r.end && (ctx.info[j + 1] as LineInfo).inFence && !closesAt(ctx, i, j)) j++;
    out.push({ start: i, end: j });
    i = j + 1;
  }
  return out;
}

/** True if line `j` closes the fence opened at line `i` (a fence line after the opener matching its marker). */
function closesAt(ctx: Ctx, i: number, j: number): boolean {
  if (j === i) return false;
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(ctx.lines[i] ?? '');
  const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(ctx.lines[j] ?? '');
  if (!open || !close) return false;
  const o = open[1] ?? '';
  const c = close[1] ?? '';
  return o[0] === c[0] && c.length >= o.length;
}

function singleLines(_ctx: Ctx, r: LineRange): LineRange[] {
  const out: LineRange[] = [];
  for (let i = r.start; i <= r.end; i++) out.push({ start: i, end: i });
  return out;
}

const LEVELS = [paragraphs, fencesAndLines, singleLines];

function split(ctx: Ctx, r: LineRange, level: number): LineRange[] {
  const unitsOf = LEVELS[level];
  if (rangeChars(ctx, r) <= ctx.maxChars || !unitsOf) return [r];
  const parts: LineRange[] = [];
  let current: LineRange | undefined;
  for (const unit of unitsOf(ctx, r)) {
    if (rangeChars(ctx, unit) > ctx.maxChars) {
      if (current) parts.push(current);
      current = undefined;
      parts.push(...split(ctx, unit, level + 1));
      continue;
    }
    if (current && rangeChars(ctx, { start: current.start, end: unit.end }) <= ctx.maxChars) {
      current = { start: current.start, end: unit.end };
    } else {
      if (current) parts.push(current);
      current = unit;
    }
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * Cuts lines[range] into ranges of at most `maxChars` code points (newlines included). Cuts fall
 * between paragraphs first; a paragraph still too long is cut between lines outside fences; a
 * single fence too long is cut between its lines. A single line longer than maxChars stays whole.
 */
export function splitSection(
  lines: readonly string[],
  info: readonly LineInfo[],
  range: LineRange,
  maxChars: number,
  prefix?: number[],
): LineRange[] {
  const p = prefix ?? prefixChars(lines);
  return split({ lines, info, prefix: p, maxChars }, range, 0);
}

/** prefix[i] = total code points of lines[0..i-1]. */
export function prefixChars(lines: readonly string[]): number[] {
  const prefix = new Array<number>(lines.length + 1);
  prefix[0] = 0;
  for (let i = 0; i < lines.length; i++) prefix[i + 1] = (prefix[i] ?? 0) + countChars(lines[i] ?? '');
  return prefix;
}
