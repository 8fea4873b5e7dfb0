// Owns line classification for Markdown: YAML front matter, CommonMark fenced code blocks
// (``` and ~~~, up to three spaces of indentation, closed only by a fence of the same character
// at least as long as the opener) and ATX / setext headings outside fences and front matter.

export interface Heading {
  level: number;
  title: string;
  /** 1 for ATX headings; 2 for setext headings (the heading starts on the line before the underline). */
  lines: 1 | 2;
}

export interface LineInfo {
  /** Part of a fenced code block, including its opening and closing fence lines. */
  readonly inFence: boolean;
  /** Part of the YAML front matter block, including its `---` delimiters. */
  readonly inFrontMatter: boolean;
  /** Set on the first line of a heading. */
  readonly heading?: Heading;
}

const FENCE_OPEN_RE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_RE = /^ {0,3}(=+|-+)[ \t]*$/;
const BLANK_RE = /^[ \t]*$/;
const BLOCK_START_RE = /^ {0,3}(?:[-+*>]|\d{1,9}[.)])(?:[ \t]|$)|^(?: {4}|\t)|^ {0,3}\|/;

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

function atxHeading(line: string): Heading | undefined {
  const m = ATX_RE.exec(line);
  if (!m) return undefined;
  // A closing sequence of #s is dropped when preceded by a space (or when it is the whole content).
  const title = (m[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
  return { level: (m[1] ?? '#').length, title, lines: 1 };
}

/** Length of the YAML front matter block (in lines), or 0 if the text has none. */
export function frontMatterLength(lines: readonly string[]): number {
  if (lines.length < 2 || !/^---[ \t]*$/.test(lines[0] ?? '')) return 0;
  for (let i = 1; i < lines.length; i++) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[i] ?? '')) return i + 1;
  }
  return 0;
}

// Shared, frozen infos for the common cases: one object per heading line, not one per line.
const PLAIN: LineInfo = Object.freeze({ inFence: false, inFrontMatter: false });
const FENCE: LineInfo = Object.freeze({ inFence: true, inFrontMatter: false });
const FRONT_MATTER: LineInfo = Object.freeze({ inFence: false, inFrontMatter: true });

/** Classifies every line of a Markdown document (the returned infos are read-only). */
export function classifyLines(lines: readonly string[]): readonly LineInfo[] {
  const info = new Array<LineInfo>(lines.length).fill(PLAIN);
  const fm = frontMatterLength(lines);
  for (let i = 0; i < fm; i++) info[i] = FRONT_MATTER;
  let open: { char: string; length: number } | undefined;
  // Whether the previous line can be the text of a setext heading (a one-line paragraph).
  let paragraphLine = -1;
  let paragraphLength = 0;
  for (let i = fm; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (open) {
      info[i] = FENCE;
      if (isFenceCloser(line, open)) open = undefined;
      continue;
    }
    const opener = fenceOpener(line);
    if (opener) {
      open = opener;
      info[i] = FENCE;
      paragraphLength = 0;
      continue;
    }
    if (BLANK_RE.test(line)) {
      paragraphLength = 0;
      continue;
    }
    const atx = atxHeading(line);
    if (atx) {
      info[i] = { inFence: false, inFrontMatter: false, heading: atx };
      paragraphLength = 0;
      continue;
    }
    const setext = SETEXT_RE.exec(line);
    if (setext && paragraphLength === 1 && paragraphLine === i - 1) {
      const heading: Heading = { level: (setext[1] ?? '=').startsWith('=') ? 1 : 2, title: (lines[i - 1] ?? '').trim(), lines: 2 };
      info[i - 1] = { inFence: false, inFrontMatter: false, heading };
      paragraphLength = 0;
      continue;
    }
    if (paragraphLength === 0 && BLOCK_START_RE.test(line)) {
      // List items, block quotes, tables and indented code never become setext heading text.
      paragraphLength = 2;
    } else {
      paragraphLength++;
    }
    paragraphLine = i;
  }
  return info;
}

/** True for lines that are blank and outside any fence (paragraph boundaries). */
export function isBlankOutsideFence(line: string, li: LineInfo): boolean {
  return !li.inFence && BLANK_RE.test(line);
}
