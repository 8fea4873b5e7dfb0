// Owns which files of a segment are docs: a sorted walk of the segment directory filtered by
// include/exclude globs. It never descends into `_ctx`, `.git`, `node_modules`, symlinked
// directories, or a subdirectory holding its own `_ctx/` (another segment: nothing crosses segments).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_INCLUDE = ['**/*.md'];
const ALWAYS_SKIPPED_DIRS = new Set(['_ctx', '.git', 'node_modules']);

/**
 * Compiles a glob into a RegExp over `/`-separated relative paths. Supports `**`, `*`, `?` and
 * `{a,b}`; a pattern without `/` matches the file or directory name at any depth (like .gitignore).
 */
export function globToRegExp(glob: string): RegExp {
  const anchored = glob.includes('/');
  const pattern = glob.replace(/^\.\//, '').replace(/^\//, '');
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '{') {
      const close = pattern.indexOf('}', i);
      if (close < 0) {
        re += '\\{';
        continue;
      }
      const alternatives = pattern.slice(i + 1, close).split(',').map((a) => a.replace(/[.+^$()|[\]\\*?]/g, '\\$&'));
      re += `(?:${alternatives.join('|')})`;
      i = close;
    } else {
      re += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
    }
  }
  return new RegExp(anchored ? `^${re}$` : `(?:^|/)${re}$`);
}

export interface DiscoverOptions {
  include?: readonly string[];
  exclude?: readonly string[];
}

/** Lists doc files in `segmentDir` as sorted `/`-separated paths relative to it. */
export function discoverDocs(segmentDir: string, options: DiscoverOptions = {}): string[] {
  const include = (options.include && options.include.length > 0 ? options.include : DEFAULT_INCLUDE).map(globToRegExp);
  const exclude = (options.exclude ?? []).map(globToRegExp);
  const excluded = (rel: string): boolean => exclude.some((re) => re.test(rel));
  const found: string[] = [];
  const walk = (absDir: string, relDir: string): void => {
    const entries = readdirSync(absDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      const abs = join(absDir, entry.name);
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED_DIRS.has(entry.name) || excluded(rel) || excluded(`${rel}/`)) continue;
        if (existsSync(join(abs, '_ctx'))) continue;
        walk(abs, rel);
        continue;
      }
      const isFile = entry.isFile() || (entry.isSymbolicLink() && safeIsFile(abs));
      if (isFile && include.some((re) => re.test(rel)) && !excluded(rel)) found.push(rel);
    }
  };
  walk(segmentDir, '');
  return found;
}

function safeIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
