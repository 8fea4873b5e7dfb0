// Owns which files of a segment are docs: a sorted walk of the segment directory filtered by
// include/exclude globs. It never descends into `.git`, `node_modules`, symlinked directories, or a
// subdirectory holding its own `_ctx/` (another segment), and reads no symlink leading outside the root.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isInside } from './segment.js';

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
      const alternatives = pattern
        .slice(i + 1, close)
        .split(',')
        .map((a) => a.replace(/[.+^$()|[\]\\*?]/g, '\\$&'));
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
  /** Symlinked docs are read only when they resolve inside this directory (default: the segment). */
  allowedRoot?: string;
  /** Told about every doc left out for safety, with the reason. */
  onSkip?: (path: string, reason: string) => void;
}

/** A Trifecta segment's own docs in `_ctx/`: its reading list, agent notes and session log. */
const TRIFECTA_DOC_RE = /^_ctx\/(?:prime|agent|session)_[^/]+\.md$|^_ctx\/agent\.md$/;

/** True when `_ctx/` holds Trifecta's segment docs (prime_*.md, agent_*.md or session_*.md). */
function isTrifectaSegment(segmentDir: string): boolean {
  try {
    return readdirSync(join(segmentDir, '_ctx')).some((name) => TRIFECTA_DOC_RE.test(`_ctx/${name}`));
  } catch {
    return false;
  }
}

/**
 * Lists doc files in `segmentDir` as sorted `/`-separated paths relative to it. `_ctx/` is read
 * only for a Trifecta segment's own docs and for include globs that name `_ctx/` explicitly.
 */
export function discoverDocs(segmentDir: string, options: DiscoverOptions = {}): string[] {
  const include = (options.include && options.include.length > 0 ? options.include : DEFAULT_INCLUDE).map(globToRegExp);
  const ctxInclude = (options.include ?? [])
    .filter((g) => /(^|\/)_ctx\//.test(g.replace(/^\.\//, '')))
    .map(globToRegExp);
  const trifecta = isTrifectaSegment(segmentDir);
  const exclude = (options.exclude ?? []).map(globToRegExp);
  const excluded = (rel: string): boolean => exclude.some((re) => re.test(rel));
  const allowedRoot = realpathSync(options.allowedRoot ?? segmentDir);
  const found: string[] = [];
  const isDoc = (rel: string, inCtx: boolean): boolean => {
    if (excluded(rel)) return false;
    if (!inCtx) return include.some((re) => re.test(rel));
    return (trifecta && TRIFECTA_DOC_RE.test(rel)) || ctxInclude.some((re) => re.test(rel));
  };
  const walk = (absDir: string, relDir: string, inCtx: boolean): void => {
    const entries = readdirSync(absDir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      const abs = join(absDir, entry.name);
      if (entry.isDirectory()) {
        if (rel === '_ctx' && (trifecta || ctxInclude.length > 0)) {
          walk(abs, rel, true);
          continue;
        }
        if (ALWAYS_SKIPPED_DIRS.has(entry.name) || excluded(rel) || excluded(`${rel}/`)) continue;
        if (existsSync(join(abs, '_ctx'))) continue;
        walk(abs, rel, inCtx);
        continue;
      }
      if (!(entry.isFile() || entry.isSymbolicLink()) || !isDoc(rel, inCtx)) continue;
      if (entry.isSymbolicLink()) {
        const target = regularFileTarget(abs);
        if (!target) continue;
        if (!isInside(allowedRoot, target)) {
          options.onSkip?.(rel, `symlink to ${target}, outside the repo root`);
          continue;
        }
      }
      found.push(rel);
    }
  };
  walk(segmentDir, '', false);
  return found;
}

/** The resolved target of a symlink when it is a regular file. */
function regularFileTarget(path: string): string | undefined {
  try {
    const target = realpathSync(path);
    return statSync(target).isFile() ? target : undefined;
  } catch {
    return undefined;
  }
}
