// Owns the shapes of a SpecStory export: its header, turn lines, tool-use and thinking blocks, and the
// times it writes (`2026-01-03 14:51Z`, or `2025-04-28 14:34:13` / `2025/1/23 14:50:15` without a zone,
// read as UTC).

export const TURN = /^_\*\*(User|Assistant|Agent|Cursor)(?: \(([^)]*)\))?\*\*_\s*$/;
// Early exports title with `## ` and write the time in the editor's locale (`2025/1/23 14:50:15`).
const STAMP = String.raw`\d{4}[-/]\d{1,2}[-/]\d{1,2}[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?`;
export const TITLE = new RegExp(String.raw`^##? (.+?)(?: \((${STAMP}|[^()]*\d/\d[^()]*)\))?\s*$`);
/** The time that ends an agent line's label (`Agent (claude-opus-4-7 2026-05-05 08:06:47Z)`). */
export const LABEL_TIME = new RegExp(String.raw`\s*(${STAMP})\s*$`);
export const SESSION_ID = /<!-- \w+ Session ([\w-]+)/;
export const TOOL_USE = /<tool-use\b[^>]*data-tool-name="([^"]+)"[^>]*>([\s\S]*?)<\/tool-use>/g;
export const THINK = /<think>([\s\S]*?)<\/think>/g;
/** Lines opening a tool-use or thinking block, with the line end that closes it. */
export const BLOCK_OPEN: [RegExp, RegExp][] = [
  [/^<tool-use[\s>]/, /<\/tool-use>\s*$/],
  [/^<think>/, /<\/think>\s*$/],
];

/**
 * `2026-01-03 14:51Z` / `2025-04-28 14:34:13` / `2025-12-05T01:38:39.912Z` (Codex CLI exports) as ISO; a time
 * without zone is read as UTC.
 */
export function isoOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?Z?$/.exec(text.trim());
  if (!m) return undefined;
  const two = (n: string | undefined) => (n ?? '00').padStart(2, '0');
  const d = new Date(`${m[1]}-${two(m[2])}-${two(m[3])}T${two(m[4])}:${m[5]}:${two(m[6])}${m[7] ?? ''}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
