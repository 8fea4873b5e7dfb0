// `--project` names project folders by whole path segments, by absolute prefix, and by `~/…` under the
// home folder of the machine a session ran on (a Windows home included).
import { describe, expect, it } from 'vitest';
import { projectMatches } from './project-match.js';

describe('projectMatches', () => {
  it('matches whole path segments only', () => {
    expect(projectMatches('/workspace/riemannian_flow_det', 'work')).toBe(false);
    expect(projectMatches('/home/me/work/app', 'work')).toBe(true);
    expect(projectMatches('/home/me/work/app', 'work/app')).toBe(true);
    expect(projectMatches('/home/me/work/app', 'ork/ap')).toBe(false);
    expect(projectMatches('/home/me/Work/App', 'work/app/')).toBe(true);
  });

  it('an absolute path names that folder and those below it', () => {
    expect(projectMatches('/home/me/app', '/home/me/app')).toBe(true);
    expect(projectMatches('/home/me/app/sub', '/home/me/app')).toBe(true);
    expect(projectMatches('/home/me/app2', '/home/me/app')).toBe(false);
    expect(projectMatches('/srv/home/me/app', '/home/me/app')).toBe(false);
    expect(projectMatches('/anything', '/')).toBe(true);
  });

  it('`~/…` round-trips the home form shown for any machine, Windows included', () => {
    expect(projectMatches('C:\\Users\\ada\\src\\app', '~/src/app')).toBe(true);
    expect(projectMatches('C:\\Users\\ada\\src\\app', 'C:/Users/ada/src')).toBe(true);
    expect(projectMatches('c:\\Users\\ada\\src\\app', 'C:\\Users\\ada\\src\\app')).toBe(true);
    expect(projectMatches('/Users/ada/src/app', '~/src')).toBe(true);
    expect(projectMatches('/home/ada/src/app', '~/src/ap')).toBe(false);
    expect(projectMatches('/opt/src/app', '~/src/app')).toBe(false);
    expect(projectMatches('C:\\Users\\ada\\src\\app', 'src\\app')).toBe(true);
  });
});
