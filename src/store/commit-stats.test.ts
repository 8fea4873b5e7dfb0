import { describe, expect, it } from 'vitest';
import { commitOutcome } from './commit-stats.js';

describe('commit outcomes', () => {
  const command = 'git add -A && git commit -m "x"';
  it('counts a commit by the hash git printed', () => {
    expect(commitOutcome(command, { is_error: 0, text: '[main 4e2305c] feat: x\n 1 file changed' })).toEqual({
      commits: 1,
      hashes: ['4e2305c'],
    });
    expect(
      commitOutcome(command, {
        is_error: 0,
        text: '[main (root-commit) 1a2b3c4] init\nnothing to commit, working tree clean',
      }),
    ).toEqual({ commits: 1, hashes: ['1a2b3c4'] });
  });

  it('does not count a failed or unanswered commit', () => {
    expect(
      commitOutcome(command, {
        is_error: 1,
        text: 'Exit code 1\nOn branch master\nnothing to commit, working tree clean',
      }).commits,
    ).toBe(0);
    expect(commitOutcome(command, { is_error: 0, text: 'Exit code 1\nhusky - pre-commit hook failed' }).commits).toBe(
      0,
    );
    expect(commitOutcome(command, { is_error: 0, text: 'fatal: not a git repository' }).commits).toBe(0);
    expect(commitOutcome(command, undefined).commits).toBe(0);
  });

  it('counts a quiet successful commit from its command', () => {
    expect(commitOutcome('git commit -qm x', { is_error: 0, text: '' })).toEqual({ commits: 1, hashes: [] });
  });
});
