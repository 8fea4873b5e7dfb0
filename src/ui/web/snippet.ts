// Owns the readable form of search snippets and file excerpts taken from a tool's JSON input: the tool and the
// file or command it acted on ("Edit hypridle.conf"), then the matched values with their newlines restored.

/** `{"file_path":"/a/b.conf","old_string":"x\ny"}` (possibly cut with "…") → its string values. */
function jsonValues(text: string): string[] {
  const values: string[] = [];
  for (const m of text.matchAll(/"(?:[^"\\]|\\.)*"\s*:\s*"((?:[^"\\]|\\.)*)("|…|$)/g))
    values.push(unescape(m[1] ?? ''));
  return values;
}

function unescape(s: string): string {
  return s.replace(/\\(["\\/nrt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '' : c === 't' ? '\t' : c));
}

/** What a tool input names: the file's base name, the command, the pattern or URL. */
function target(text: string): string {
  const key = /"(?:file_path|path|notebook_path)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  if (key?.[1]) return unescape(key[1]).split(/[\\/]/).pop() ?? '';
  const other = /"(?:command|pattern|url|query|description)"\s*:\s*"((?:[^"\\]|\\.){0,60})/.exec(text);
  return other?.[1] ? unescape(other[1]).split('\n')[0]! : '';
}

/** A hit's field (`tool:Edit:input`) and snippet as a label and readable text. */
export function readableHit(field: string, snippet: string): { label: string; text: string } {
  const tool = /^tool:([^:]+):(input|result)$/.exec(field);
  if (!tool) return { label: field, text: snippet };
  const [, name, part] = tool;
  if (part === 'result') return { label: `${name} result`, text: snippet };
  const looksJson = /"\w+"\s*:/.test(snippet);
  if (!looksJson) return { label: name!, text: snippet };
  const what = target(snippet);
  const values = jsonValues(snippet).filter((v) => v && v !== 'true' && v !== 'false');
  const cut = snippet.startsWith('…') ? '… ' : '';
  return { label: `${name} ${what}`.trim(), text: cut + values.join(' · ') };
}

/** An excerpt that may hold JSON escapes (`\n`, `\"`) shown with real newlines and quotes. */
export function readableExcerpt(excerpt: string): string {
  return /\\[n"]/.test(excerpt) ? unescape(excerpt) : excerpt;
}

/** A title of at most `max` characters, cut at a word with "…". */
export function clip(title: string, max = 100): string {
  const one = title.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const cut = one.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
