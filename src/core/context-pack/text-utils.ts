// Owns small text helpers for context packs: code-point counts, one-line previews, truncation.

const HIGH_SURROGATE_RE = /[\uD800-\uDBFF]/;

/** Number of Unicode code points (what the spec calls characters), not UTF-16 units. */
export function countChars(text: string): number {
  if (!HIGH_SURROGATE_RE.test(text)) return text.length;
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
  // Walk max code points without materialising the whole string as an array.
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) {
    const c = text.charCodeAt(end);
    end += c >= 0xd800 && c <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end) + '…';
}

/** Preview of a chunk: one line, at most `max` code points, `…` when cut (spec §4). */
export function preview(text: string, max = 180): string {
  // Only a prefix can reach the preview: collapse a growing prefix instead of the whole text.
  for (let window = max * 2 + 16; ; window *= 2) {
    if (window >= text.length) return truncateChars(oneLine(text), max);
    const head = oneLine(text.slice(0, window));
    // More than max code points survive, and the cut fell beyond them: the preview is settled.
    if (countChars(head) > max + 1) return truncateChars(head, max);
  }
}
