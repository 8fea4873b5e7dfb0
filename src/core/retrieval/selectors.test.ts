import { describe, expect, it } from 'vitest';
import { parseSelectors, resolveVisibility, selectorsToSql, type BlockTarget } from './selectors.js';
import { parseRange } from './read-session.js';
import { parseTimeSpec } from '../../shared/time.js';

const bashIn: BlockTarget = { field: 'tool_input', toolName: 'Bash', noise: false };
const bashOut: BlockTarget = { field: 'tool_output', toolName: 'Bash', noise: false };
const editIn: BlockTarget = { field: 'tool_input', toolName: 'Edit', noise: false };
const thinking: BlockTarget = { field: 'thinking', toolName: null, noise: false };
const user: BlockTarget = { field: 'user', toolName: null, noise: false };
const noise: BlockTarget = { field: 'user', toolName: null, noise: true };

const vis = (t: BlockTarget, show: string[], hide: string[]) =>
  resolveVisibility(t, parseSelectors(show), parseSelectors(hide));

describe('selectors', () => {
  it('parses comma lists, wildcards and part synonyms', () => {
    expect(parseSelectors(['user,tool:Bash:input', 'tool:*:output'])).toEqual([
      { category: 'user', raw: 'user' },
      { category: 'tool', tool: 'Bash', part: 'input', raw: 'tool:Bash:input' },
      { category: 'tool', part: 'result', raw: 'tool:*:output' },
    ]);
  });

  it('rejects unknown selectors with a usage error', () => {
    expect(() => parseSelectors('tools')).toThrow(/unknown selector "tools"/);
    expect(() => parseSelectors('user:x')).toThrow(/only tool selectors/);
    expect(() => parseSelectors('tool:Bash:stdout')).toThrow(/input or result/);
  });

  it('has a default: text shown, thinking counted, calls shown, results and noise hidden', () => {
    expect(vis(user, [], [])).toBe('show');
    expect(vis(thinking, [], [])).toBe('count');
    expect(vis(bashIn, [], [])).toBe('show');
    expect(vis(bashOut, [], [])).toBe('hide');
    expect(vis(noise, [], [])).toBe('hide');
    expect(vis(noise, ['noise'], [])).toBe('show');
  });

  it('lets the more specific selector win, whichever flag it is on', () => {
    expect(vis(bashIn, ['tool:Bash'], ['tool'])).toBe('show');
    expect(vis(editIn, ['tool:Bash'], ['tool'])).toBe('hide');
    expect(vis(bashOut, ['tool:Bash:input'], ['tool:Bash'])).toBe('hide');
    expect(vis(bashIn, ['tool:Bash:input'], ['tool:Bash'])).toBe('show');
    expect(vis(bashOut, ['tool'], ['tool:*:result'])).toBe('hide');
    expect(vis(bashOut, ['tool:bash'], ['tool:*:result'])).toBe('show'); // names are case-insensitive
    expect(vis(thinking, ['thinking'], [])).toBe('show');
    expect(vis(thinking, [], ['thinking'])).toBe('hide');
    expect(vis(user, ['user'], ['user'])).toBe('show'); // a tie goes to --show
  });

  it('turns selectors into a bound SQL condition for search scope', () => {
    expect(selectorsToSql([])).toEqual({
      sql:
        "(b.noise IS NULL OR b.noise IN ('ide_opened_file', 'ide_selection', 'user_shell_command', " +
        "'user_action', 'expanded_content'))",
      params: [],
    });
    const q = selectorsToSql(parseSelectors('user,tool:Bash:result'));
    expect(q.sql).toContain("b.field = 'user'");
    expect(q.sql).toContain("b.field = 'tool_output'");
    expect(q.params).toEqual(['Bash']);
  });
});

describe('ranges', () => {
  it('parses N, N-M and N- against the session length', () => {
    expect(parseRange(undefined, 10)).toEqual({ from: 1, to: 10 });
    expect(parseRange('3', 10)).toEqual({ from: 3, to: 3 });
    expect(parseRange('3-7', 10)).toEqual({ from: 3, to: 7 });
    expect(parseRange('3-', 10)).toEqual({ from: 3, to: 10 });
    expect(parseRange('8-50', 10)).toEqual({ from: 8, to: 10 });
  });

  it('rejects malformed and out-of-range positions', () => {
    expect(() => parseRange('0', 10)).toThrow(/start at 1/);
    expect(() => parseRange('7-3', 10)).toThrow(/must not exceed/);
    expect(() => parseRange('a-b', 10)).toThrow(/invalid range/);
    expect(() => parseRange('11', 10)).toThrow(/has 10 messages/);
  });
});

describe('time filters', () => {
  const now = new Date('2025-11-10T12:00:00Z');
  it('parses relative spans and ISO dates', () => {
    expect(parseTimeSpec('30m', now)).toBe('2025-11-10T11:30:00.000Z');
    expect(parseTimeSpec('2h', now)).toBe('2025-11-10T10:00:00.000Z');
    expect(parseTimeSpec('7d', now)).toBe('2025-11-03T12:00:00.000Z');
    expect(parseTimeSpec('1w', now)).toBe('2025-11-03T12:00:00.000Z');
    expect(parseTimeSpec('2025-11-02', now)).toBe('2025-11-02T00:00:00.000Z');
    expect(() => parseTimeSpec('yesterday', now)).toThrow(/invalid time/);
  });
});
