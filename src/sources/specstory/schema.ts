// Owns the shapes of a SpecStory export: its header, turn lines, tool-use and thinking blocks, and the
// times it writes (`2026-01-03 14:51Z`, or `2025-04-28 14:34:13` without a zone, read as UTC).

export const TURN = /^_\*\*(User|Assistant|Agent|Cursor)(?: \(([^)]*)\))?\*\*_\s*$/;
export const TITLE = /^# (.+?)(?: \((\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?Z?)\))?\s*$/;
export const SESSION_ID = /<!-- \w+ Session ([\w-]+)/;
export const TOOL_USE = /<tool-use\b[^>]*data-tool-name="([^"]+)"[^>]*>([\s\S]*?)<\/tool-use>/g;
export const THINK = /<think>([\s\S]*?)<\/think>/g;

/** `2026-01-03 14:51Z` / `2025-04-28 14:34:13` as ISO (a time without zone is read as UTC). */
export function isoOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::(\d{2}))?Z?$/.exec(text.trim());
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2]}:${m[3] ?? '00'}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
