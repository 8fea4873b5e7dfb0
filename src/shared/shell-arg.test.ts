// A printed command runs as printed: an id with spaces or quotes stays one argument.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellArg } from './shell-arg.js';

describe('shellArg', () => {
  it('leaves a plain id as it is and quotes one with a space', () => {
    expect(shellArg('99999999-cccc-4ccc-8ccc-000000000003')).toBe('99999999-cccc-4ccc-8ccc-000000000003');
    expect(shellArg('50be4cd66ad1:2025-09-22 12:04:00')).toBe('"50be4cd66ad1:2025-09-22 12:04:00"');
  });

  it('gives back the same single argument through a real shell', () => {
    for (const id of ['50be4cd66ad1:2025-09-22 12:04:00', 'say "hi" $HOME `x` \\ end', '2025-07-06_12-06-проблема']) {
      const out = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${shellArg(id)}`], { encoding: 'utf8' });
      expect(out).toBe(`${id}\n`);
    }
  });
});
