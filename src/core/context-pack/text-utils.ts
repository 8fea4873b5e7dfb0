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
  const points = Array.from(text);
  return points.slice(0, Math.max(0, max)).join('') + '…';
}

/** Preview of a chunk: one line, at most `max` code points, `…` when cut (spec §4). */
export function preview(text: string, max = 180): string {
  return truncateChars(oneLine(text), max);
}
