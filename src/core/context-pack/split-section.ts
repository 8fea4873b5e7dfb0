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

/** Level 2 units: whole verbatim blocks (fences, HTML and indented code) and single lines outside them. */
function fencesAndLines(ctx: Ctx, r: LineRange): LineRange[] {
  const out: LineRange[] = [];
  let i = r.start;
  while (i <= r.end) {
    const block = ctx.info[i] as LineInfo;
    let j = i;
    // A block is the run of lines sharing one classification (each fence has its own frozen info).
    if (block.inFence) while (j + 1 <= r.end && ctx.info[j + 1] === block) j++;
    out.push({ start: i, end: j });
    i = j + 1;
  }
  return out;
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
      // Each piece of a cut fence is closed and reopened (chunker.ts), so leave room for those lines.
      const fence = (ctx.info[unit.start] as LineInfo).fence;
      const room =
        fence && fence.start <= unit.start && fence.end >= unit.end ? fence.opener.length + fence.closer.length + 2 : 0;
      parts.push(...split({ ...ctx, maxChars: Math.max(1, ctx.maxChars - room) }, unit, level + 1));
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
