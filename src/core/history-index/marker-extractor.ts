// Owns MarkerExtractor (spec §2): `@/type: text` semantic markers from prompts and responses, with their
// 1-based line number and the lines of context around them. Patterns come from a marker config JSON
// (schemas/default-markers.json by default) validated by schemas/marker-config.schema.json.
import { StrataError } from '../../shared/errors.js';
import {
  DEFAULT_MARKERS_URL,
  MARKER_CONFIG_SCHEMA_URL,
  readJsonFile,
  schemaErrors,
  schemaValidator,
} from './schema-files.js';
import type { ExtractedMarker, MarkerConfig, ParsedHistory } from './types.js';

export interface MarkerConfigFile {
  version?: 1;
  contextLines?: number;
  patterns: Array<{ type: string; pattern: string; flags?: string; priority: number; description?: string }>;
}

const DEFAULT_CONTEXT_LINES = 3;
const MAX_CONTENT_CHARS = 1000;
const MAX_CONTEXT_LINE_CHARS = 240;

/** Validates a marker config document against its schema and compiles its patterns; throws SCHEMA. */
export function markerConfigFromJson(doc: unknown, where = 'marker config'): MarkerConfig {
  const errors = schemaErrors(schemaValidator(MARKER_CONFIG_SCHEMA_URL), doc);
  if (errors.length > 0)
    throw new StrataError('SCHEMA', `${where} does not match marker-config.schema.json: ${errors.join('; ')}`);
  const file = doc as MarkerConfigFile;
  const patterns = file.patterns.map((p) => {
    let regex: RegExp;
    try {
      regex = new RegExp(p.pattern, [...new Set(`${p.flags ?? ''}g`)].join(''));
    } catch (error) {
      throw new StrataError(
        'SCHEMA',
        `${where}: pattern for "${p.type}" is not a valid regular expression: ${(error as Error).message}`,
      );
    }
    return { type: p.type, regex, priority: p.priority, ...(p.description ? { description: p.description } : {}) };
  });
  return { patterns, contextLines: file.contextLines ?? DEFAULT_CONTEXT_LINES };
}

let defaultConfig: MarkerConfig | undefined;

function clipLine(line: string): string {
  return line.length > MAX_CONTEXT_LINE_CHARS ? line.slice(0, MAX_CONTEXT_LINE_CHARS - 1) + '…' : line;
}

export class MarkerExtractor {
  /** True when every pattern needs a literal `@/`, so texts without one are skipped cheaply. */
  private readonly needsAtSlash: boolean;

  constructor(readonly config: MarkerConfig) {
    this.needsAtSlash = config.patterns.every(
      (p) => p.regex.source.startsWith('@\\/') || p.regex.source.startsWith('@/'),
    );
  }

  /** The nine default `@/` patterns with their priorities (schemas/default-markers.json). */
  static getDefaultConfig(): MarkerConfig {
    defaultConfig ??= markerConfigFromJson(readJsonFile(DEFAULT_MARKERS_URL), 'schemas/default-markers.json');
    return {
      contextLines: defaultConfig.contextLines,
      patterns: defaultConfig.patterns.map((p) => ({ ...p, regex: new RegExp(p.regex.source, p.regex.flags) })),
    };
  }

  extract(raw: string, sourceInfo: { promptId: string; field: string }): ExtractedMarker[] {
    if (raw === '' || (this.needsAtSlash && !raw.includes('@/'))) return [];
    // CRLF and lone CR end lines too: `.` never matches `\r`, so a marker on a CRLF line would be missed.
    const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    const field = sourceInfo.field === 'response' ? 'response' : 'prompt';
    let lines: string[] | undefined;
    let lineStarts: number[] | undefined;
    const found: Array<ExtractedMarker & { index: number }> = [];
    for (const pattern of this.config.patterns) {
      const regex = new RegExp(pattern.regex.source, pattern.regex.flags);
      for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
        if (m[0] === '') {
          regex.lastIndex++;
          continue;
        }
        // An empty marker (`@/bug:` at the end of a line) must not swallow the next line through `\s*`.
        if (m[1] !== undefined && m[0].slice(0, m[0].indexOf(m[1])).includes('\n')) continue;
        const content = (m[1] ?? m[0]).trim().slice(0, MAX_CONTENT_CHARS);
        if (content === '') continue;
        lines ??= text.split('\n');
        lineStarts ??= lineStartOffsets(text);
        const lineIndex = upperBound(lineStarts, m.index) - 1;
        const n = this.config.contextLines;
        found.push({
          type: pattern.type,
          content,
          sourcePromptId: sourceInfo.promptId,
          sourceField: field,
          lineNumber: lineIndex + 1,
          context: {
            before: lines
              .slice(Math.max(0, lineIndex - n), lineIndex)
              .map(clipLine)
              .join('\n'),
            after: lines
              .slice(lineIndex + 1, lineIndex + 1 + n)
              .map(clipLine)
              .join('\n'),
          },
          priority: pattern.priority,
          index: m.index,
        });
      }
    }
    return found.sort((a, b) => a.index - b.index).map(({ index: _index, ...marker }) => marker);
  }

  /** Markers of every prompt (prompt text first, then its response), keyed by prompt id. */
  extractFromHistory(history: ParsedHistory): Map<string, ExtractedMarker[]> {
    const out = new Map<string, ExtractedMarker[]>();
    for (const prompts of history.branches.values()) {
      for (const p of prompts) {
        const markers = [
          ...this.extract(p.content, { promptId: p.id, field: 'prompt' }),
          ...this.extract(p.response?.content ?? '', { promptId: p.id, field: 'response' }),
        ];
        if (markers.length > 0) out.set(p.id, markers);
      }
    }
    return out;
  }
}

function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** First index whose value is greater than `x` (lineStarts is ascending). */
function upperBound(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
