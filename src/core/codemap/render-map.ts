// Owns rendering file maps and single symbols as text at a detail level (outline → full). Every
// rendering passes the redactor: signatures, docs and bodies can hold a secret from the source.
import { redactText } from '../../shared/redact/index.js';
import type { CodeSymbol, DetailLevel, FileMap } from './types.js';

/** Reads a mapped file's current text (needed only for the `full` level). */
export type SourceReader = (map: FileMap) => string;

const DOC_SHORT = 120;

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** First sentence (or line) of a doc comment, at most 120 characters. */
export function shortDoc(doc: string): string {
  const firstPara = doc.split(/\n\s*\n/)[0] ?? '';
  const flat = firstPara.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length > DOC_SHORT ? sentence.slice(0, DOC_SHORT - 1) + '…' : sentence;
}

/** Nesting depth of each symbol by line-range containment (symbols sorted by start line). */
function symbolDepths(symbols: CodeSymbol[]): number[] {
  const stack: CodeSymbol[] = [];
  return symbols.map((s) => {
    while (
      stack.length > 0 &&
      !(stack[stack.length - 1]!.startLine <= s.startLine && stack[stack.length - 1]!.endLine >= s.endLine)
    )
      stack.pop();
    const depth = stack.length;
    stack.push(s);
    return depth;
  });
}

function qualified(s: CodeSymbol): string {
  return s.parent ? `${s.parent}.${s.name}` : s.name;
}

/** The line-comment marker of a mapped language: `#` for Python, `//` for the C-like rest. */
function commentMarker(language: string | null): string {
  return language === 'python' ? '#' : '//';
}

function commentLines(doc: string, indent: string, marker: string): string[] {
  return doc.split('\n').map((line) => `${indent}${marker} ${line}`.trimEnd());
}

function sourceLines(source: string): string[] {
  const lines = source.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * One file's block of text: starts with the path (never whitespace) and ends with a newline, so blocks can be
 * concatenated and their token counts add up.
 */
export function renderFileMap(map: FileMap, level: DetailLevel, readSource?: SourceReader): string {
  const tag = map.fallback ? ` [${map.fallback}]` : '';
  const range = map.lines > 0 ? `:1-${map.lines}` : '';
  if (level === 'outline' || map.fallback) return `${map.path}${range} (${formatSize(map.bytes)})${tag}\n`;
  const out: string[] = [`${map.path} (${map.lines} lines${map.language ? `, ${map.language}` : ''})`];
  if (level !== 'minimal' && map.imports.length > 0) out.push(`  imports: ${map.imports.join(', ')}`);
  const depths = symbolDepths(map.symbols);
  if (level === 'full') {
    if (!readSource) throw new Error('renderFileMap: the full level needs a source reader');
    const lines = sourceLines(readSource(map));
    if (map.language === 'markdown' || map.symbols.length === 0) out.push(...lines);
    map.symbols.forEach((s, i) => {
      if (map.language === 'markdown' || depths[i] !== 0) return;
      out.push(`  L${s.startLine}-${s.endLine} ${s.kind} ${qualified(s)}`);
      if (s.doc && s.docStartLine !== undefined) out.push(...commentLines(s.doc, '', commentMarker(map.language)));
      out.push(...lines.slice(s.startLine - 1, s.endLine));
    });
  } else {
    map.symbols.forEach((s, i) => {
      const indent = '  '.repeat((depths[i] ?? 0) + 1);
      if (level === 'minimal') {
        out.push(`${indent}${s.kind} ${s.name}`);
        return;
      }
      if (level === 'standard' && s.doc) out.push(`${indent}${commentMarker(map.language)} ${shortDoc(s.doc)}`);
      out.push(`${indent}L${s.startLine}-${s.endLine} ${s.signature || `${s.kind} ${s.name}`}`);
    });
  }
  return redactText(out.join('\n') + '\n').text;
}

/**
 * A file's main exports only (the minimal level's form, cut to `symbols`): the step before a whole
 * minimal listing of a large file, so its best-known names show before any less central file's path.
 */
export function renderKeySymbols(map: FileMap, symbols: readonly CodeSymbol[]): string {
  const out = [`${map.path} (${map.lines} lines${map.language ? `, ${map.language}` : ''})`];
  for (const s of symbols) out.push(`  ${s.kind} ${s.name}`);
  const more = map.symbols.length - symbols.length;
  if (more > 0) out.push(`  [+${more} more symbol${more === 1 ? '' : 's'}]`);
  return redactText(out.join('\n') + '\n').text;
}

/** Ground-truth rendering of one symbol at a level, prefixed by where it lives. */
export function renderSymbol(map: FileMap, symbol: CodeSymbol, level: DetailLevel, readSource?: SourceReader): string {
  const where = `${map.path}:${symbol.startLine}-${symbol.endLine}`;
  const head = `${where} ${symbol.kind} ${qualified(symbol)}${symbol.exported ? ' (exported)' : ''}`;
  if (level === 'outline' || level === 'minimal') return head + '\n';
  const out = [head, `  ${symbol.signature}`];
  if (level === 'standard' && symbol.doc) out.splice(1, 0, `  ${commentMarker(map.language)} ${shortDoc(symbol.doc)}`);
  if (level === 'full') {
    if (!readSource) throw new Error('renderSymbol: the full level needs a source reader');
    const lines = sourceLines(readSource(map));
    out.length = 1;
    if (symbol.doc && symbol.docStartLine !== undefined)
      out.push(...commentLines(symbol.doc, '', commentMarker(map.language)));
    out.push(...lines.slice(symbol.startLine - 1, symbol.endLine));
  }
  return redactText(out.join('\n') + '\n').text;
}

export interface ViewResult {
  text: string;
  found: { name: string; path: string; line: number }[];
  missing: string[];
}

/** Does `query` name this symbol? Accepts `name`, `Parent.name` and `Parent::name`. */
export function symbolMatches(symbol: CodeSymbol, query: string): boolean {
  if (symbol.name === query) return true;
  if (!symbol.parent) return false;
  return query === `${symbol.parent}.${symbol.name}` || query === `${symbol.parent}::${symbol.name}`;
}

/** The spec's `render_view`: renders every symbol matching each name, in file order, at `level`. */
export function renderView(
  names: string[],
  level: DetailLevel,
  maps: FileMap[],
  readSource?: SourceReader,
): ViewResult {
  const parts: string[] = [];
  const found: ViewResult['found'] = [];
  const missing: string[] = [];
  for (const name of names) {
    let hits = 0;
    for (const map of maps) {
      for (const symbol of map.symbols) {
        if (!symbolMatches(symbol, name)) continue;
        hits++;
        parts.push(renderSymbol(map, symbol, level, readSource));
        found.push({ name: qualified(symbol), path: map.path, line: symbol.startLine });
      }
    }
    if (hits === 0) missing.push(name);
  }
  return { text: parts.join(''), found, missing };
}
