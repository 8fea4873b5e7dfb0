// Owns cutting one Markdown document into chunks: one per heading section (headings inside fences
// or front matter never start one), the text before the first heading as a level-0 chunk, and the
// paragraph fallback for sections longer than max_chars.
import { classifyLines, splitLines, type LineInfo } from './markdown-lines.js';
import { prefixChars, splitSection, type LineRange } from './split-section.js';
import type { RawChunk } from './types.js';

interface Section {
  titlePath: string[];
  level: number;
  /** 0-based line range, inclusive. */
  start: number;
  end: number;
  headingLines: number;
}

const BLANK_RE = /^[ \t]*$/;

function sectionsOf(lines: readonly string[], info: readonly LineInfo[]): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: Section = { titlePath: [], level: 0, start: 0, end: -1, headingLines: 0 };
  for (let i = 0; i < lines.length; i++) {
    const heading = (info[i] as LineInfo).heading;
    if (!heading) continue;
    current.end = i - 1;
    sections.push(current);
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= heading.level) stack.pop();
    stack.push({ level: heading.level, title: heading.title });
    current = {
      titlePath: stack.map((h) => h.title),
      level: heading.level,
      start: i,
      end: -1,
      headingLines: heading.lines,
    };
  }
  current.end = lines.length - 1;
  sections.push(current);
  return sections;
}

/** Drops blank lines at both ends of a range; returns undefined if nothing is left. */
function trimRange(lines: readonly string[], r: LineRange): LineRange | undefined {
  let { start, end } = r;
  while (start <= end && BLANK_RE.test(lines[start] ?? '')) start++;
  while (end >= start && BLANK_RE.test(lines[end] ?? '')) end--;
  return start <= end ? { start, end } : undefined;
}

function isFrontMatterDelimiter(info: readonly LineInfo[], i: number): boolean {
  return (info[i] as LineInfo).inFrontMatter && (i === 0 || !(info[i + 1] as LineInfo | undefined)?.inFrontMatter);
}

/** True when a section holds nothing but its heading. */
function headingOnly(lines: readonly string[], s: Section): boolean {
  for (let i = s.start + s.headingLines; i <= s.end; i++) if (!BLANK_RE.test(lines[i] ?? '')) return false;
  return true;
}

/**
 * Joins a part's lines, closing a fence the part cuts off and reopening (with its info string) a
 * fence the part starts inside, so every chunk has balanced fences.
 */
function balanced(
  _lines: readonly string[],
  info: readonly LineInfo[],
  start: number,
  end: number,
  partLines: string[],
): string {
  const first = (info[start] as LineInfo).fence;
  const last = (info[end] as LineInfo).fence;
  const out = partLines.slice();
  if (first && start > first.start) out.unshift(first.opener);
  if (last && end < last.end) out.push(last.closer);
  return out.join('\n');
}

export interface ChunkOptions {
  maxChars: number;
}

/**
 * Cuts a document into chunks. Chunk text is the exact source lines (line endings normalised to
 * `\n`), heading included, plus the lines closing or reopening a fence cut between chunks; a
 * heading-only section followed by a subsection is folded away (its title leads the subsection's).
 */
export function chunkMarkdown(source: string, options: ChunkOptions): RawChunk[] {
  const lines = splitLines(source);
  const info = classifyLines(lines);
  const prefix = prefixChars(lines);
  const sections = sectionsOf(lines, info);
  const chunks: RawChunk[] = [];
  sections.forEach((section, k) => {
    const next = sections[k + 1];
    if (section.level > 0 && next && next.level > section.level && headingOnly(lines, section)) return;
    const trimmed = trimRange(lines, { start: section.start, end: section.end });
    if (!trimmed) return;
    const parts = splitSection(lines, info, trimmed, options.maxChars, prefix);
    for (const part of parts) {
      const text = balanced(lines, info, part.start, part.end, lines.slice(part.start, part.end + 1));
      const bodyStart = part.start === section.start ? section.start + section.headingLines : part.start;
      // The body leaves out the heading line(s) and the front matter's `---` delimiters.
      const bodyLines = lines
        .slice(bodyStart, part.end + 1)
        .filter((_, k) => !isFrontMatterDelimiter(info, bodyStart + k));
      const body = bodyStart > part.end ? '' : balanced(lines, info, bodyStart, part.end, bodyLines);
      chunks.push({
        title_path: section.titlePath,
        heading_level: section.level,
        start_line: part.start + 1,
        end_line: part.end + 1,
        text,
        body,
      });
    }
  });
  return chunks;
}
