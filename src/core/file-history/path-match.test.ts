import { describe, expect, it } from 'vitest';
import { mentionsPath, pathKey, recordedKey, samePath } from './path-match.js';

const same = (a: string, b: string) => samePath(pathKey(a), pathKey(b));

describe('pathKey', () => {
  it('normalizes POSIX, Windows, file URLs, ./ and ..', () => {
    expect(pathKey('/repo/src/./a.ts')).toEqual({ root: '', segments: ['repo', 'src', 'a.ts'] });
    expect(pathKey('C:\\Repo\\src\\a.ts')).toEqual({ root: 'c:', segments: ['Repo', 'src', 'a.ts'] });
    expect(pathKey('/c:/Repo/src/a.ts')).toEqual({ root: 'c:', segments: ['Repo', 'src', 'a.ts'] });
    expect(pathKey('file:///repo/a.ts')).toEqual({ root: '', segments: ['repo', 'a.ts'] });
    expect(pathKey('./src/../lib/a.ts')).toEqual({ root: null, segments: ['lib', 'a.ts'] });
    expect(pathKey('~/x/a.ts')).toEqual({ root: '~', segments: ['x', 'a.ts'] });
  });
});

describe('samePath', () => {
  it('matches a relative path against the absolute path it ends', () => {
    expect(same('/home/me/repo/src/a.ts', 'src/a.ts')).toBe(true);
    expect(same('src/a.ts', '/home/me/repo/src/a.ts')).toBe(true);
    expect(same('./src/a.ts', 'repo/src/a.ts')).toBe(true);
    expect(same('/home/me/repo/src/a.ts', 'rc/a.ts')).toBe(false);
    expect(same('/home/me/repo/src/b.ts', 'src/a.ts')).toBe(false);
  });

  it('requires two absolute POSIX paths to be equal', () => {
    expect(same('/home/me/repo/src/a.ts', '/home/me/repo/src/a.ts')).toBe(true);
    expect(same('/home/me/repo/src/a.ts', '/srv/repo/src/a.ts')).toBe(false);
  });

  it('matches Windows forms caselessly, and against POSIX forms of the same tail', () => {
    expect(same('C:\\Repo\\Src\\a.ts', 'c:/repo/src/A.ts')).toBe(true);
    expect(same('C:\\Repo\\src\\a.ts', 'src\\a.ts')).toBe(true);
    expect(same('C:\\Repo\\src\\a.ts', 'D:\\Repo\\src\\a.ts')).toBe(false);
    expect(same('C:\\repo\\src\\a.ts', '/repo/src/a.ts')).toBe(true);
    expect(same('/home/me/repo/src/a.ts', 'SRC/a.ts')).toBe(false);
  });

  it('matches ~ paths by their tail', () => {
    expect(same('/home/me/.config/app.conf', '~/.config/app.conf')).toBe(true);
  });
});

describe('recordedKey', () => {
  it('takes a relative recorded path relative to the session project', () => {
    expect(samePath(recordedKey('src/a.ts', '/repo'), pathKey('/repo/src/a.ts'))).toBe(true);
    expect(samePath(recordedKey('src/a.ts', '/repo'), pathKey('/other/src/a.ts'))).toBe(false);
    expect(samePath(recordedKey('src/a.ts', 'C:\\repo'), pathKey('c:/repo/src/a.ts'))).toBe(true);
    expect(samePath(recordedKey('src/a.ts', null), pathKey('/other/src/a.ts'))).toBe(true);
  });
});

describe('mentionsPath', () => {
  it('finds a path in prose and code, not a longer name that contains it', () => {
    const q = pathKey('/repo/src/app.ts');
    expect(mentionsPath('I will fix src/app.ts first.', q)).toBe(true);
    expect(mentionsPath('see `C:\\repo\\src\\app.ts`, line 3', q)).toBe(true);
    expect(mentionsPath('run src/app.test.ts', q)).toBe(false);
    expect(mentionsPath('webapp.ts changed', q)).toBe(false);
  });
});
