// Owns symbol-aware chunk boundaries: cut between top-level symbols, split oversized symbols at inner boundaries.
import type { CodeSymbol } from './types.js';

export interface PlannedChunk {
  startLine: number;
  endLine: number;
  /** Symbols larger than a chunk that this chunk holds only part of, outermost first. */
  spanning: CodeSymbol[];
}

interface Atom {
  start: number;
  end: number;
  symbol?: CodeSymbol;
}

/** Symbols in `pool` lying within [start, end] that no other symbol of the pool contains; overlaps merged. */
function topLevel(
  pool: CodeSymbol[],
  start: number,
  end: number,
): { start: number; end: number; symbol: CodeSymbol }[] {
  const inside = pool
    .filter((s) => s.startLine >= start && s.endLine <= end)
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const result: { start: number; end: number; symbol: CodeSymbol }[] = [];
  for (const s of inside) {
    const last = result[result.length - 1];
    if (last && s.startLine <= last.end) {
      last.end = Math.max(last.end, s.endLine);
      continue;
    }
    result.push({ start: s.startLine, end: s.endLine, symbol: s });
  }
  return result;
}

/** Cuts [start, end] into atoms: top-level symbols (with their doc comment above) and the gaps between them. */
function atomsOf(pool: CodeSymbol[], start: number, end: number): Atom[] {
  const atoms: Atom[] = [];
  let cursor = start;
  for (const top of topLevel(pool, start, end)) {
    const docStart = top.symbol.docStartLine;
    const from = docStart !== undefined && docStart >= cursor && docStart < top.start ? docStart : top.start;
    if (from > cursor) atoms.push({ start: cursor, end: from - 1 });
    atoms.push({ start: from, end: top.end, symbol: top.symbol });
    cursor = top.end + 1;
  }
  if (cursor <= end) atoms.push({ start: cursor, end });
  return atoms;
}

/**
 * Plans chunks of at most `maxChars` characters over `lineLengths` (characters per line, newline included).
 * A chunk exceeds `maxChars` only when a single line does.
 */
export function planChunks(lineLengths: number[], symbols: CodeSymbol[], maxChars: number): PlannedChunk[] {
  const prefix = [0];
  for (const len of lineLengths) prefix.push(prefix[prefix.length - 1]! + len);
  const chars = (s: number, e: number): number => prefix[e]! - prefix[s - 1]!;
  const chunks: PlannedChunk[] = [];
  if (lineLengths.length === 0) return chunks;

  const splitLines = (start: number, end: number, spanning: CodeSymbol[]): void => {
    let from = start;
    for (let line = start; line <= end; line++) {
      if (line > from && chars(from, line) > maxChars) {
        chunks.push({ startLine: from, endLine: line - 1, spanning });
        from = line;
      }
    }
    chunks.push({ startLine: from, endLine: end, spanning });
  };

  const pack = (start: number, end: number, spanning: CodeSymbol[], pool: CodeSymbol[]): void => {
    const atoms = atomsOf(pool, start, end);
    let current: Atom[] = [];
    const flush = (): void => {
      if (current.length > 0)
        chunks.push({ startLine: current[0]!.start, endLine: current[current.length - 1]!.end, spanning });
      current = [];
    };
    for (let index = 0; index < atoms.length; index++) {
      const atom = atoms[index]!;
      const size = chars(atom.start, atom.end);
      // A symbol that fits only without its doc comment: detach the comment into its own gap atom.
      const sym = atom.symbol;
      if (sym && size > maxChars && atom.start < sym.startLine && chars(sym.startLine, atom.end) <= maxChars) {
        atoms.splice(
          index,
          1,
          { start: atom.start, end: sym.startLine - 1 },
          { start: sym.startLine, end: atom.end, symbol: sym },
        );
        index--;
        continue;
      }
      const curSize = current.length > 0 ? chars(current[0]!.start, current[current.length - 1]!.end) : 0;
      if (current.length > 0 && curSize + size <= maxChars) {
        current.push(atom);
        continue;
      }
      // Keep a gap (comments, blank lines) with the symbol that follows it when they fit together.
      const trailing = current[current.length - 1];
      let carried: Atom | undefined;
      if (
        atom.symbol &&
        trailing &&
        !trailing.symbol &&
        current.length > 1 &&
        chars(trailing.start, atom.end) <= maxChars
      ) {
        carried = current.pop();
      }
      flush();
      if (carried) current.push(carried);
      if (size + (carried ? chars(carried.start, carried.end) : 0) <= maxChars) {
        current.push(atom);
        continue;
      }
      flush();
      const outer = atom.symbol;
      // Inner boundaries: symbols strictly inside the oversized one (same-range duplicates would recurse forever).
      const inner = outer
        ? pool.filter(
            (s) =>
              s.startLine >= atom.start &&
              s.endLine <= atom.end &&
              !(s.startLine <= outer.startLine && s.endLine >= outer.endLine),
          )
        : [];
      if (outer && inner.length > 0) pack(atom.start, atom.end, [...spanning, outer], inner);
      else splitLines(atom.start, atom.end, atom.symbol ? [...spanning, atom.symbol] : spanning);
    }
    flush();
  };

  pack(1, lineLengths.length, [], symbols);
  return chunks;
}
