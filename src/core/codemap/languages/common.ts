// Owns helpers shared by the per-language symbol extractors: line numbers, signatures, doc comments.
import type { CodeSymbol, SymbolKind } from '../types.js';
import type { SyntaxNode } from '../tree-sitter-runtime.js';

export interface Extraction {
  symbols: CodeSymbol[];
  imports: string[];
}

export type Extractor = (root: SyntaxNode, source: string) => Extraction;

const MAX_SIGNATURE = 240;
const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);
const LEADING_TYPES = new Set([
  'decorator',
  'attribute_item',
  'comment',
  'line_comment',
  'block_comment',
  'annotation',
  'marker_annotation',
]);

function startLine(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node (a node ending at column 0 ends on the previous line). */
function endLine(node: SyntaxNode): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

export function collapse(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE ? flat.slice(0, MAX_SIGNATURE - 1) + '…' : flat;
}

/** Declaration text from the first non-decorator child up to the body (or the first line when no body). */
function signatureOf(source: string, node: SyntaxNode, body?: SyntaxNode | null): string {
  let start = node.startIndex;
  for (const child of node.children) {
    if (!LEADING_TYPES.has(child.type)) {
      start = child.startIndex;
      break;
    }
  }
  let end = body ? body.startIndex : node.endIndex;
  if (!body) {
    const newline = source.indexOf('\n', start);
    if (newline !== -1 && newline < end) end = newline;
  }
  let text = source.slice(start, end).trim();
  text = text.replace(/\s*[{:=;]\s*$/, '');
  return collapse(text);
}

export type DocStyle = (commentText: string) => boolean;
export const anyComment: DocStyle = () => true;
export const docCommentOnly: DocStyle = (t) => t.startsWith('/**') || t.startsWith('///') || t.startsWith('//!');

/** Strips comment markers from a comment block and joins its lines. */
function cleanComment(text: string): string {
  return text
    .replace(/^\/\*\*?/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*(\/\/[/!]?|\*(?!\/)|#)\s?/, '').trimEnd())
    .join('\n')
    .trim();
}

/** Comments directly above `node` (no blank line between) that match `style`, cleaned; with their first line. */
function docAbove(node: SyntaxNode, style: DocStyle): { doc: string; line: number } | undefined {
  const parts: string[] = [];
  let expectRow = node.startPosition.row;
  let first: SyntaxNode | undefined;
  let prev = node.previousSibling;
  while (prev && COMMENT_TYPES.has(prev.type)) {
    const gapOk = prev.endPosition.row >= expectRow - 1;
    if (!gapOk || !style(prev.text)) break;
    parts.unshift(cleanComment(prev.text));
    first = prev;
    expectRow = prev.startPosition.row;
    prev = prev.previousSibling;
  }
  if (!first) return undefined;
  const doc = parts.join('\n').trim();
  return doc ? { doc, line: startLine(first) } : undefined;
}

/** Start of a node including contiguous decorator/attribute siblings right above it. */
export function withLeadingDecorators(node: SyntaxNode, types: ReadonlySet<string>): SyntaxNode {
  let first = node;
  let prev = node.previousNamedSibling;
  while (prev && types.has(prev.type)) {
    first = prev;
    prev = prev.previousNamedSibling;
  }
  return first;
}

export interface SymbolInput {
  name: string;
  kind: SymbolKind;
  /** Node whose range is the symbol's range (e.g. the export statement or decorated definition). */
  range: SyntaxNode;
  /** Node the signature is taken from (defaults to `range`). */
  decl?: SyntaxNode;
  body?: SyntaxNode | null;
  exported: boolean;
  parent?: string | undefined;
  /** Node above which doc comments are looked for (defaults to `range`). */
  docAnchor?: SyntaxNode;
  doc?: string | undefined;
  signature?: string;
  firstNode?: SyntaxNode;
}

/** Accumulates symbols and imports for one file. */
export class SymbolSink {
  readonly symbols: CodeSymbol[] = [];
  readonly imports: string[] = [];

  constructor(
    readonly source: string,
    private readonly docStyle: DocStyle,
  ) {}

  add(input: SymbolInput): CodeSymbol {
    const decl = input.decl ?? input.range;
    const symbol: CodeSymbol = {
      name: input.name,
      kind: input.kind,
      signature: input.signature ?? signatureOf(this.source, decl, input.body),
      startLine: startLine(input.firstNode ?? input.range),
      endLine: endLine(input.range),
      exported: input.exported,
    };
    if (input.parent) symbol.parent = input.parent;
    if (input.doc) symbol.doc = input.doc;
    else {
      const found = docAbove(input.docAnchor ?? input.firstNode ?? input.range, this.docStyle);
      if (found) {
        symbol.doc = found.doc;
        symbol.docStartLine = found.line;
      }
    }
    this.symbols.push(symbol);
    return symbol;
  }

  addImport(spec: string): void {
    const clean = spec.replace(/^['"`<]|['"`>]$/g, '').trim();
    if (clean && !this.imports.includes(clean)) this.imports.push(clean);
  }

  result(): Extraction {
    this.symbols.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
    return { symbols: this.symbols, imports: this.imports };
  }
}

export function field(node: SyntaxNode, name: string): SyntaxNode | null {
  return node.childForFieldName(name);
}

export function nameOf(node: SyntaxNode, fieldName = 'name'): string | undefined {
  return node.childForFieldName(fieldName)?.text;
}
