// Owns line classification for Markdown: YAML front matter, then a CommonMark parse (markdown-it)
// for fenced code blocks at any depth, HTML and indented code blocks, and top-level ATX / setext
// headings outside them.
import MarkdownIt from 'markdown-it';

interface Heading {
  level: number;
  title: string;
  /** 1 for ATX headings; for setext headings, the text lines plus the underline. */
  lines: number;
}

/** A fenced code block: 0-based first and last line, and the lines that open and close it. */
interface Fence {
  start: number;
  end: number;
  /** False when the document (or its container) ends before a closing fence. */
  closed: boolean;
  opener: string;
  closer: string;
}

export interface LineInfo {
  /** Part of a verbatim block (fenced or indented code, HTML block), fence lines included. */
  readonly inFence: boolean;
  /** The fenced code block this line belongs to. */
  readonly fence?: Fence;
  /** Part of the YAML front matter block, including its `---` delimiters. */
  readonly inFrontMatter: boolean;
  /** Set on the first line of a heading. */
  readonly heading?: Heading;
}

const FENCE_OPEN_RE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const BLANK_RE = /^[ \t]*$/;

/** Splits text into lines on LF, CRLF or CR, dropping a leading byte-order mark. */
export function splitLines(text: string): string[] {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Splitting on a plain string is several times faster than on a RegExp; most files are LF-only.
  return (clean.includes('\r') ? clean.replace(/\r\n?/g, '\n') : clean).split('\n');
}

/** Returns the fence char and length if `line` opens a fence, else undefined. */
export function fenceOpener(line: string): { char: string; length: number } | undefined {
  const m = FENCE_OPEN_RE.exec(line);
  if (!m) return undefined;
  const marker = m[2] ?? '';
  const info = m[3] ?? '';
  // A backtick fence's info string may not contain backticks (CommonMark 4.5).
  if (marker[0] === '`' && info.includes('`')) return undefined;
  return { char: marker[0] ?? '`', length: marker.length };
}

/** True if `line` closes a fence opened with `char` repeated `length` times. */
export function isFenceCloser(line: string, open: { char: string; length: number }): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  if (!m) return false;
  const marker = m[1] ?? '';
  return marker[0] === open.char && marker.length >= open.length;
}

/** Length of the YAML front matter block (in lines), or 0 if the text has none. */
export function frontMatterLength(lines: readonly string[]): number {
  if (lines.length < 2 || !/^---[ \t]*$/.test(lines[0] ?? '')) return 0;
  for (let i = 1; i < lines.length; i++) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[i] ?? '')) return i + 1;
  }
  return 0;
}

// Shared, frozen infos for the common cases: one object per heading line or fence, not one per line.
const PLAIN: LineInfo = Object.freeze({ inFence: false, inFrontMatter: false });
const VERBATIM: LineInfo = Object.freeze({ inFence: true, inFrontMatter: false });
const FRONT_MATTER: LineInfo = Object.freeze({ inFence: false, inFrontMatter: true });

const createParser = () => new MarkdownIt('commonmark');
let parser: ReturnType<typeof createParser> | undefined;

/**
 * Classifies every line of a Markdown document (the returned infos are read-only). Blocks come from
 * a CommonMark parser: fences at any depth (inside list items too), HTML blocks such as <pre> and
 * indented code are verbatim; only top-level ATX and setext headings start sections.
 */
export function classifyLines(lines: readonly string[]): readonly LineInfo[] {
  const info = new Array<LineInfo>(lines.length).fill(PLAIN);
  const fm = frontMatterLength(lines);
  for (let i = 0; i < fm; i++) info[i] = FRONT_MATTER;
  parser ??= createParser();
  const tokens = parser.parse(lines.slice(fm).join('\n'), {});
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (!token.map) continue;
    const start = token.map[0] + fm;
    const end = Math.min(token.map[1] + fm, lines.length) - 1;
    if (token.type === 'fence') {
      // Inside a list item the closer is indented like the item's content, so any indentation is accepted here.
      const closer = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[end] ?? '')?.[1] ?? '';
      const closed = end > start && closer[0] === token.markup[0] && closer.length >= token.markup.length;
      const fence: Fence = Object.freeze({
        start,
        end,
        closed,
        opener: lines[start] ?? token.markup,
        closer: `${(lines[start] ?? '').match(/^\s*/)?.[0] ?? ''}${token.markup}`,
      });
      const line: LineInfo = Object.freeze({ inFence: true, inFrontMatter: false, fence });
      for (let i = start; i <= end; i++) info[i] = line;
    } else if (token.type === 'html_block' || token.type === 'code_block') {
      for (let i = start; i <= end; i++) info[i] = VERBATIM;
    } else if (token.type === 'heading_open' && token.level === 0) {
      const title = (tokens[t + 1]?.content ?? '').replace(/\s+/g, ' ').trim();
      info[start] = {
        inFence: false,
        inFrontMatter: false,
        heading: { level: Number(token.tag.slice(1)), title, lines: end - start + 1 },
      };
    }
  }
  return info;
}

/** True for lines that are blank and outside any fence (paragraph boundaries). */
export function isBlankOutsideFence(line: string, li: LineInfo): boolean {
  return !li.inFence && BLANK_RE.test(line);
}
