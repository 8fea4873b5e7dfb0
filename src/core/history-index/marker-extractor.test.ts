// AC 2 (MarkerExtractor): the nine default @/ patterns with their priorities from
// schemas/default-markers.json (validated by schemas/marker-config.schema.json), line numbers, context
// lines before and after, markers from prompts and responses, custom configs validated.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  DEFAULT_MARKERS_URL,
  MARKER_CONFIG_SCHEMA_URL,
  MarkerExtractor,
  markerConfigFromJson,
  type ParsedHistory,
} from './index.js';

const DEFAULT_PRIORITIES = {
  decision: 10,
  breaking: 10,
  security: 9,
  bug: 8,
  api: 7,
  pattern: 6,
  perf: 5,
  todo: 4,
  ref: 3,
};

describe('MarkerExtractor', () => {
  it('ships a default config that validates against the marker-config schema (checked with a fresh ajv)', () => {
    const schema = JSON.parse(readFileSync(MARKER_CONFIG_SCHEMA_URL, 'utf8'));
    const config = JSON.parse(readFileSync(DEFAULT_MARKERS_URL, 'utf8'));
    const validate = new Ajv2020({ strict: true }).compile(schema);
    expect(validate(config)).toBe(true);
    const defaults = MarkerExtractor.getDefaultConfig();
    expect(Object.fromEntries(defaults.patterns.map((p) => [p.type, p.priority]))).toEqual(DEFAULT_PRIORITIES);
    expect(defaults.contextLines).toBe(3);
    expect(defaults.patterns.find((p) => p.type === 'decision')!.regex.source).toBe('@\\/decision:\\s*(.+?)(?:\\n|$)');
  });

  it('extracts all nine @/ types with line numbers, priorities and 3 lines of context', () => {
    const lines = ['intro 1', 'intro 2', 'intro 3', 'intro 4'];
    for (const type of Object.keys(DEFAULT_PRIORITIES)) lines.push(`@/${type}: the ${type} text`);
    lines.push('tail 1', 'tail 2', 'tail 3', 'tail 4');
    const text = lines.join('\n');
    const markers = new MarkerExtractor(MarkerExtractor.getDefaultConfig()).extract(text, {
      promptId: 'p1',
      field: 'prompt',
    });
    expect(markers.map((m) => m.type)).toEqual(Object.keys(DEFAULT_PRIORITIES));
    markers.forEach((m, i) => {
      expect(m).toMatchObject({
        content: `the ${m.type} text`,
        sourcePromptId: 'p1',
        sourceField: 'prompt',
        lineNumber: 5 + i,
        priority: DEFAULT_PRIORITIES[m.type as keyof typeof DEFAULT_PRIORITIES],
      });
    });
    expect(markers[0]!.context).toEqual({
      before: 'intro 2\nintro 3\nintro 4',
      after: '@/breaking: the breaking text\n@/security: the security text\n@/bug: the bug text',
    });
    expect(markers[8]!.context.after).toBe('tail 1\ntail 2\ntail 3');
  });

  it('finds markers on lines ending in CRLF (or a lone CR) with the same contents and line numbers', () => {
    const x = new MarkerExtractor(MarkerExtractor.getDefaultConfig());
    const text = 'intro\r\n@/decision: use SQLite\r\n@/bug: CRLF lines missed\r\nold mac\r@/todo: lone CR\r\n';
    const found = x.extract(text, { promptId: 'p', field: 'prompt' });
    expect(found.map((m) => [m.type, m.content, m.lineNumber])).toEqual([
      ['decision', 'use SQLite', 2],
      ['bug', 'CRLF lines missed', 3],
      ['todo', 'lone CR', 5],
    ]);
    expect(found[0]!.context.before).toBe('intro');
  });

  it('is case-insensitive on the tag, trims, skips empty or unknown markers; text runs to the end of its line', () => {
    const x = new MarkerExtractor(MarkerExtractor.getDefaultConfig());
    const found = x.extract(
      '@/TODO:   write docs   \n@/unknown: nope\n@/bug:\nsee @/ref: https://example.com/spec and more',
      { promptId: 'p', field: 'response' },
    );
    expect(found.map((m) => [m.type, m.content, m.lineNumber, m.sourceField])).toEqual([
      ['todo', 'write docs', 1, 'response'],
      ['ref', 'https://example.com/spec and more', 4, 'response'],
    ]);
    expect(x.extract('@/todo: one @/todo: two', { promptId: 'p', field: 'prompt' }).map((m) => m.content)).toEqual([
      'one @/todo: two',
    ]);
    expect(x.extract('no markers here', { promptId: 'p', field: 'prompt' })).toEqual([]);
  });

  it('extracts from prompts and responses of a whole history, keyed by prompt id', () => {
    const history = {
      branches: new Map([
        [
          'main',
          [
            {
              id: 'a',
              branchId: 'main',
              parentId: null,
              content: '@/decision: SQLite',
              timestamp: 0,
              response: {
                content: 'fine\n@/perf: use WAL',
                sessionId: '',
                cost: 0,
                turns: 1,
                duration: 0,
                timestamp: 0,
              },
              children: [],
              depth: 0,
            },
            {
              id: 'b',
              branchId: 'main',
              parentId: 'a',
              content: 'nothing',
              timestamp: 0,
              response: null,
              children: [],
              depth: 1,
            },
          ],
        ],
      ]),
    } as unknown as ParsedHistory;
    const map = new MarkerExtractor(MarkerExtractor.getDefaultConfig()).extractFromHistory(history);
    expect([...map.keys()]).toEqual(['a']);
    expect(map.get('a')!.map((m) => [m.type, m.sourceField, m.lineNumber])).toEqual([
      ['decision', 'prompt', 1],
      ['perf', 'response', 2],
    ]);
  });

  it('accepts a custom config and rejects invalid ones with SCHEMA errors', () => {
    const custom = markerConfigFromJson({
      contextLines: 1,
      patterns: [{ type: 'note', pattern: 'NOTE\\((.+?)\\)', priority: 2 }],
    });
    const m = new MarkerExtractor(custom).extract('a\nsee NOTE(check this) here\nb\nc', {
      promptId: 'p',
      field: 'prompt',
    });
    expect(m).toEqual([
      {
        type: 'note',
        content: 'check this',
        sourcePromptId: 'p',
        sourceField: 'prompt',
        lineNumber: 2,
        context: { before: 'a', after: 'b' },
        priority: 2,
      },
    ]);
    expect(() => markerConfigFromJson({ patterns: [] })).toThrow(/marker-config.schema.json/);
    expect(() => markerConfigFromJson({ patterns: [{ type: 'x', pattern: 'a', priority: 11 }] })).toThrow(
      /priority|maximum/,
    );
    expect(() => markerConfigFromJson({ patterns: [{ type: 'x', pattern: '(unclosed', priority: 1 }] })).toThrow(
      /not a valid regular expression/,
    );
    expect(() => markerConfigFromJson({ patterns: [{ type: 'x', pattern: 'a', priority: 1, extra: true }] })).toThrow(
      /additional/,
    );
  });
});
