// Owns setting a few keys of one TOML table in place: the table's statements are found by parsing each
// one alone (so multi-line arrays and strings are whole), only the named keys' statements are rewritten,
// and every other line of the file — other keys, comments, sub-tables — stays as written.
import { parse as parseToml } from 'smol-toml';

interface Statement {
  first: number;
  last: number;
  key: string;
}

/** The longest statement strata looks for, in lines (a longer value is left to an edit by hand). */
const MAX_STATEMENT_LINES = 200;

function parses(text: string): Record<string, unknown> | undefined {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `[a.b]`, with optional spaces, quotes around plain parts and a trailing comment. */
function headerPattern(table: string): RegExp {
  const parts = table.split('.').map((p) => `\\s*"?${p.replace(/[^\w-]/g, '\\$&')}"?\\s*`);
  return new RegExp(`^\\s*\\[${parts.join('\\.')}\\]\\s*(#.*)?$`);
}

/** The key/value statements of the table whose header is at `header`, up to the next header or the end. */
function tableStatements(lines: string[], header: number): Statement[] | undefined {
  const found: Statement[] = [];
  let i = header + 1;
  while (i < lines.length) {
    const line = lines[i]!;
    if (/^\s*(#.*)?$/.test(line)) {
      i++;
      continue;
    }
    if (/^\s*\[/.test(line)) break;
    let last = i;
    let value = parses(line);
    while (value === undefined && last - i < MAX_STATEMENT_LINES && last + 1 < lines.length)
      value = parses(lines.slice(i, ++last + 1).join('\n'));
    const key = value && Object.keys(value)[0];
    if (key === undefined) return undefined;
    found.push({ first: i, last, key });
    i = last + 1;
  }
  return found;
}

/** A single-line statement's trailing comment (from the `#` after which the rest still parses the same). */
function trailingComment(line: string): string {
  const whole = JSON.stringify(parses(line));
  for (let at = line.indexOf('#'); at >= 0; at = line.indexOf('#', at + 1)) {
    if (JSON.stringify(parses(line.slice(0, at))) === whole) return ` ${line.slice(at)}`;
  }
  return '';
}

/**
 * `text` with each `key = value` (value as TOML text) set in the table `table` (e.g. "mcp_servers.strata");
 * undefined when the table is not written as exactly one `[table]` header with plain `key = ...` statements.
 */
export function setTomlTableKeys(text: string, table: string, pairs: [string, string][]): string | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const pattern = headerPattern(table);
  const headers = lines.flatMap((line, i) => (pattern.test(line) ? [i] : []));
  if (headers.length !== 1) return undefined;
  const header = headers[0]!;
  const statements = tableStatements(lines, header);
  if (!statements) return undefined;
  const replaced = new Map<number, string[]>();
  const missing: string[] = [];
  for (const [key, value] of pairs) {
    const own = statements.filter((s) => s.key === key);
    if (own.length === 0) {
      missing.push(`${key} = ${value}`);
      continue;
    }
    const s = own[0]!;
    const line = lines[s.first]!;
    if (own.length > 1 || !new RegExp(`^\\s*"?${key}"?\\s*=`).test(line)) return undefined;
    const indent = /^\s*/.exec(line)![0];
    const comment = s.first === s.last ? trailingComment(line) : '';
    replaced.set(s.first, [`${indent}${key} = ${value}${comment}`]);
    for (let i = s.first + 1; i <= s.last; i++) replaced.set(i, []);
  }
  const insertAfter = statements.at(-1)?.last ?? header;
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    out.push(...(replaced.get(i) ?? [line]));
    if (i === insertAfter) out.push(...missing);
  }
  return out.join(eol);
}
