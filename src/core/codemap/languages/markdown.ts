// Owns the Markdown outline: headings (nested by level) and fenced code-block ranges, without a parser.
import type { CodeSymbol } from '../types.js';
import type { Extraction } from './common.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;

export function extractMarkdown(source: string): Extraction {
  const lines = source.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const symbols: CodeSymbol[] = [];
  const open: { level: number; symbol: CodeSymbol }[] = [];
  let fence: { marker: string; start: number; lang: string } | undefined;
  const closeHeadings = (level: number, lastLine: number): void => {
    while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop()!.symbol.endLine = lastLine;
  };
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (
        fenceMatch &&
        fenceMatch[1]![0] === fence.marker[0] &&
        fenceMatch[1]!.length >= fence.marker.length &&
        !fenceMatch[2]
      ) {
        addBlock(fence.start, lineNo, fence.lang);
        fence = undefined;
      }
      return;
    }
    if (fenceMatch) {
      fence = { marker: fenceMatch[1]!, start: lineNo, lang: fenceMatch[2] ?? '' };
      return;
    }
    const heading = HEADING.exec(line);
    if (!heading) return;
    const level = heading[1]!.length;
    closeHeadings(level, lineNo - 1);
    const symbol: CodeSymbol = {
      name: heading[2]!,
      kind: 'heading',
      signature: `${heading[1]} ${heading[2]}`,
      startLine: lineNo,
      endLine: lines.length,
      exported: true,
    };
    const parent = open[open.length - 1];
    if (parent) symbol.parent = parent.symbol.name;
    symbols.push(symbol);
    open.push({ level, symbol });
  });
  if (fence) addBlock(fence.start, lines.length, fence.lang);
  closeHeadings(0, lines.length);

  function addBlock(start: number, end: number, lang: string): void {
    const parent = open[open.length - 1];
    const block: CodeSymbol = {
      name: lang || 'code',
      kind: 'code-block',
      signature: '```' + lang,
      startLine: start,
      endLine: end,
      exported: false,
    };
    if (parent) block.parent = parent.symbol.name;
    symbols.push(block);
  }
  symbols.sort((a, b) => a.startLine - b.startLine);
  return { symbols, imports: [] };
}
