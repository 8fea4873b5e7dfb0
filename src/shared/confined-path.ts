// Owns confinement of paths to a set of root folders: a path is accepted only when it names something
// inside a root both as written (no `..` escape, no absolute path elsewhere) and once symlinks are
// resolved, so a link that points outside is refused like the path it points to.
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { StrataError } from './errors.js';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The absolute path of `given` (relative to the first root) when it stays under one of `roots`;
 * USAGE naming the path otherwise, NOT_FOUND when it does not exist.
 */
export function resolveConfined(roots: string[], given: string): string {
  if (roots.length === 0) throw new StrataError('USAGE', 'no root folder to read from');
  const text = given.trim() === '' ? '.' : given;
  if (text.split(/[\\/]/).includes('..'))
    throw new StrataError('USAGE', `path "${given}" is outside the allowed roots: ".." is not allowed`);
  const absolute = resolve(roots[0]!, text);
  const root = roots.find((r) => inside(resolve(r), absolute));
  if (!root) throw new StrataError('USAGE', `path "${given}" is outside the allowed roots (${roots.join(', ')})`);
  if (!existsSync(absolute)) throw new StrataError('NOT_FOUND', `no such file or folder: ${given}`);
  const real = realpathSync(absolute);
  if (!roots.some((r) => inside(realpathSync(r), real))) {
    throw new StrataError('USAGE', `path "${given}" resolves outside the allowed roots through a symbolic link`);
  }
  return absolute;
}
