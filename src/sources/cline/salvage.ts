// Owns recovering the complete messages of a task history cut short (Cline rewrites the whole file on
// each change; a crash mid-write leaves a prefix): the top-level array's entries that close before the cut.

/** The complete entries of a truncated top-level JSON array, or undefined when the text is not one. */
export function salvageArray(text: string): unknown[] | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '[') return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let lastEnd = -1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 1) lastEnd = i;
      if (depth <= 0) break;
    }
  }
  try {
    const parsed: unknown = JSON.parse(lastEnd < 0 ? '[]' : `${text.slice(start, lastEnd + 1)}]`);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
