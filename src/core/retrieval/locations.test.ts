import { describe, expect, it } from 'vitest';
import { displayPath, sessionHome, significantLocations } from './locations.js';
import { shortestUniquePrefixes } from './session-ids.js';
import { callEffects, countCommits, countLines, parseApplyPatch } from '../../shared/tool-calls/edit-stats.js';
import { classifyTool } from '../../shared/tool-calls/tool-classes.js';

describe('significant locations (> 30% of total, > 50% of parent)', () => {
  it('names the folder when work is spread inside it', () => {
    expect(significantLocations({ 'src/a.ts': 10, 'src/b.ts': 10, 'src/c.ts': 10, 'README.md': 5 })).toEqual(['src/']);
  });

  it('descends into a child holding more than half of its parent', () => {
    expect(significantLocations({ 'src/core/a.ts': 60, 'src/core/b.ts': 30, 'src/cli/x.ts': 10 })).toEqual([
      'src/core/a.ts',
    ]);
    // core holds 90% of src; inside core, a.ts holds 50% exactly (not more): core is the location
    expect(significantLocations({ 'src/core/a.ts': 45, 'src/core/b.ts': 45, 'src/cli/x.ts': 10 })).toEqual([
      'src/core/',
    ]);
  });

  it('reports several locations above 30% of the total and none below', () => {
    expect(significantLocations({ 'docs/a.md': 40, 'src/b.ts': 35, 'test/c.ts': 25 })).toEqual([
      'docs/a.md',
      'src/b.ts',
    ]);
    expect(significantLocations({ a: 25, b: 25, c: 25, d: 25 })).toEqual([]);
    expect(significantLocations({})).toEqual([]);
  });

  it('does not descend into a dominant child that is itself below 30% of the total', () => {
    // lib holds 40% of all work; inside it x/ holds 28% of the total (70% of lib): lib/ is named
    expect(
      significantLocations({ 'lib/x/a.ts': 14, 'lib/x/b.ts': 14, 'lib/y.ts': 12, 'p.ts': 20, 'q.ts': 20, 'r.ts': 20 }),
    ).toEqual(['lib/']);
  });

  it('shows project files relative, home files with ~/ and others absolute', () => {
    expect(displayPath('/home/u/app/src/a.ts', '/home/u/app', '/home/u')).toBe('src/a.ts');
    expect(displayPath('/home/u/.config/x', '/home/u/app', '/home/u')).toBe('~/.config/x');
    expect(displayPath('/etc/hosts', '/home/u/app', '/home/u')).toBe('/etc/hosts');
    expect(displayPath('C:\\Users\\u\\app\\a.ts', 'C:\\Users\\u\\app', null)).toBe('a.ts');
    expect(significantLocations({ '/etc/a': 5, '/etc/b': 5 })).toEqual(['/etc/']);
  });
});

describe('session id prefixes', () => {
  it('gives the shortest unique prefix, at least 8 characters', () => {
    const ids = shortestUniquePrefixes([
      '1fb5e404-604d',
      '1fb5e404-999a',
      '5fbb940a-c7f3',
      'agent-a65810',
      'agent-a6a92b',
    ]);
    expect(ids.get('1fb5e404-604d')).toBe('1fb5e404-6');
    expect(ids.get('5fbb940a-c7f3')).toBe('5fbb940a');
    expect(ids.get('agent-a65810')).toBe('agent-a65');
  });
});

describe('edit and shell statistics', () => {
  it('classifies tool names across agents', () => {
    expect(
      ['Bash', 'shell', 'exec_command', 'local_shell_call', 'run_shell_command', 'bash'].map(classifyTool),
    ).toEqual(Array(6).fill('bash'));
    expect(['WebFetch', 'web_fetch'].map(classifyTool)).toEqual(['fetch', 'fetch']);
    expect(['WebSearch', 'web_search', 'google_web_search', 'web_search_call'].map(classifyTool)).toEqual(
      Array(4).fill('search'),
    );
    expect(classifyTool('Read')).toBe('other');
  });

  it('counts lines of Claude, Gemini and OpenCode edits', () => {
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('')).toBe(0);
    expect(callEffects('Edit', { file_path: '/p/a.ts', old_string: 'x', new_string: 'y\nz' }).edits).toEqual([
      { path: '/p/a.ts', added: 2, removed: 1 },
    ]);
    expect(
      callEffects('MultiEdit', {
        file_path: '/p/a.ts',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c\nd', new_string: '' },
        ],
      }).edits,
    ).toEqual([{ path: '/p/a.ts', added: 1, removed: 3 }]);
    expect(callEffects('Write', { file_path: '/p/b.ts', content: '1\n2\n3\n' }).edits).toEqual([
      { path: '/p/b.ts', added: 3, removed: 0 },
    ]);
    expect(callEffects('replace', { file_path: 'g.ts', old_string: 'a', new_string: 'b' }).edits).toEqual([
      { path: 'g.ts', added: 1, removed: 1 },
    ]);
    expect(callEffects('write_file', { file_path: 'g.ts', content: 'a' }).edits).toEqual([
      { path: 'g.ts', added: 1, removed: 0 },
    ]);
    expect(callEffects('edit', { filePath: 'o.ts', oldString: 'a', newString: 'b\nc' }).edits).toEqual([
      { path: 'o.ts', added: 2, removed: 1 },
    ]);
  });

  it('parses Codex apply_patch bodies, directly or inside a shell heredoc', () => {
    const patch =
      '*** Begin Patch\n*** Update File: a.ex\n@@\n-old\n+new\n+more\n*** Add File: b.ex\n+x\n*** End Patch';
    expect(parseApplyPatch(patch)).toEqual([
      { path: 'a.ex', added: 2, removed: 1 },
      { path: 'b.ex', added: 1, removed: 0 },
    ]);
    expect(callEffects('apply_patch', patch).edits).toHaveLength(2);
    expect(callEffects('shell', { command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] }).edits).toHaveLength(
      2,
    );
  });

  it('counts git commits in shell commands', () => {
    expect(countCommits('git add . && git commit -m "x" && git -C repo commit --amend')).toBe(2);
    expect(countCommits('git log --oneline; echo commit')).toBe(0);
    expect(callEffects('Bash', { command: 'git commit -am wip' }).commits).toBe(1);
    expect(callEffects('exec_command', { cmd: 'git commit -m a' }).commits).toBe(1);
  });
});

describe('displayPath edge cases', () => {
  it('matches the plain string rules for slashes, trailing slashes and prefixes', () => {
    expect(displayPath('C:\\Users\\me\\app\\src\\a.ts', 'C:\\Users\\me\\app\\', null)).toBe('src/a.ts');
    expect(displayPath('/home/me/app', '/home/me/app//', '/home/me')).toBe('.');
    expect(displayPath('/home/me/apple/x', '/home/me/app', '/home/me/')).toBe('~/apple/x');
    expect(displayPath('/home/me', null, '/home/me/')).toBe('~');
    expect(displayPath('/home/mex/a', null, '/home/me')).toBe('/home/mex/a');
    expect(displayPath('./rel/a', '', '')).toBe('rel/a');
  });

  it('bounds the tree of a path thousands of folders deep: the work is still named, the stack never overflows', () => {
    const deep = 'a/'.repeat(20_000) + 'f.txt';
    const found = significantLocations({ [deep]: 10 });
    expect(found).toEqual([deep]);
  });
});

describe('Windows paths in their several spellings', () => {
  it('counts C:/Users/x, c:\\Users\\x, /c/Users/x and /mnt/c/Users/x as one folder', () => {
    const shown = [
      'C:/Users/jj/code/cosa/src/a.ts',
      'c:\\Users\\jj\\code\\cosa\\src\\b.ts',
      '/c/Users/jj/code/cosa/src/c.ts',
      '/mnt/c/Users/jj/code/cosa/src/d.ts',
    ].map((p) => displayPath(p, null, null));
    expect(new Set(shown.map((p) => p.slice(0, p.lastIndexOf('/'))))).toEqual(new Set(['C:/Users/jj/code/cosa/src']));
    expect(significantLocations(Object.fromEntries(shown.map((p) => [p, 10])))).toEqual(['C:/Users/jj/code/cosa/src/']);
    expect(sessionHome('/c/Users/jj/code/cosa', null)).toBe('C:/Users/jj');
    expect(displayPath('/c/Users/jj/code/x.ts', null, 'C:/Users/jj')).toBe('~/code/x.ts');
    expect(displayPath('/home/c/Users.txt', null, null)).toBe('/home/c/Users.txt');
  });
});

describe('ids with white space', () => {
  it('are shown as an 8-digit alias that is typed unquoted', async () => {
    const { spacedIdAlias } = await import('./session-ids.js');
    const id = 'bbb4ebd0eb79:2024-08-10 08:14:35';
    const alias = spacedIdAlias(id)!;
    expect(alias).toMatch(/^[0-9a-f]{8}$/);
    expect(shortestUniquePrefixes([id, 'bbb4ebd0eb79:2024-08-10 09:00:00', 'abcdef0123']).get(id)).toBe(alias);
    expect(spacedIdAlias('1fb5e404-604d')).toBeUndefined();
  });
});
