// Owns small text helpers for context packs: code-point counts, one-line previews, truncation.

/** Number of Unicode code points (what the spec calls characters), not UTF-16 units. */
export function countChars(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/** Collapses all whitespace runs into single spaces and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first `max` code points of `text`, followed by `…` when anything was cut. */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  if (countChars(text) <= max) return text;
  return text.slice(0, sliceEnd(text, max)) + '…';
}

/** Preview of a chunk: one line, at most `max` code points, `…` when cut (spec §4). */
export function preview(text: string, max = 180): string {
  // One pass over only as much text as the preview needs: whitespace runs become one space,
  // leading and trailing whitespace is dropped, and we stop once max code points are kept.
  let out = '';
  let points = 0;
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(text[i] ?? ''))) {
      pendingSpace = out.length > 0;
      continue;
    }
    const width = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
    if (pendingSpace) {
      if (points >= max) return out + '…';
      out += ' ';
      points++;
      pendingSpace = false;
    }
    if (points >= max) return out + '…';
    out += text.slice(i, i + width);
    points++;
    i += width - 1;
  }
  return out;
}

/** UTF-16 index just past the first `max` code points of `text`. */
function sliceEnd(text: string, max: number): number {
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) {
    const c = text.charCodeAt(end);
    end += c >= 0xd800 && c <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return end;
}
