// Owns matching a file path across the forms agents record it in: absolute POSIX paths, paths relative to
// the session's project, Windows paths (`C:\repo\src\a.ts`, `c:/repo/...`) and `./`-prefixed paths.
// Two paths match when, split into segments, one ends with the other (a relative path is a tail of the
// absolute one); two absolute paths must be equal.

export interface PathKey {
  /** Lower-cased drive letter or '' for POSIX; null when the path is relative. */
  root: string | null;
  segments: string[];
}

/** Splits a recorded path into its root and normalized segments (`.` dropped, `..` applied). */
export function pathKey(raw: string): PathKey {
  let path = raw
    .trim()
    .replace(/^file:\/\//, '')
    .replace(/\\/g, '/');
  let root: string | null = null;
  const drive = /^\/?([A-Za-z]):(\/|$)/.exec(path);
  if (drive) {
    root = drive[1]!.toLowerCase() + ':';
    path = path.slice(drive[0].length);
  } else if (path.startsWith('/')) {
    root = '';
  } else if (path.startsWith('~/')) {
    root = '~';
    path = path.slice(2);
  }
  const segments: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else segments.push(part);
  }
  return { root, segments };
}

function endsWith(long: string[], short: string[], caseless: boolean): boolean {
  if (short.length === 0 || short.length > long.length) return false;
  const offset = long.length - short.length;
  for (let i = 0; i < short.length; i++) {
    const a = long[offset + i]!;
    const b = short[i]!;
    if (caseless ? a.toLowerCase() !== b.toLowerCase() : a !== b) return false;
  }
  return true;
}

/**
 * The key of a path as recorded in a session: a relative path is taken relative to the session's
 * project (its working directory), so `src/a.ts` in /repo is /repo/src/a.ts and not any src/a.ts.
 */
export function recordedKey(raw: string, project: string | null): PathKey {
  const key = pathKey(raw);
  if (key.root !== null || !project) return key;
  const base = pathKey(project);
  if (base.root === null) return key;
  return pathKey([base.root === '' ? '' : base.root, ...base.segments, ...key.segments].join('/'));
}

/** True when `recorded` (as an agent wrote it) names the same file as `query` (as a person typed it). */
export function samePath(recorded: PathKey, query: PathKey): boolean {
  // Windows file systems ignore case; a drive letter on either side says the path came from one.
  const caseless = (recorded.root?.endsWith(':') ?? false) || (query.root?.endsWith(':') ?? false);
  const bothAbsolute = recorded.root !== null && query.root !== null && recorded.root !== '~' && query.root !== '~';
  if (bothAbsolute) {
    // A Windows path and a POSIX path of the same checkout (WSL, a copied store) compare by their tails.
    if (recorded.root !== query.root && (recorded.root === '' || query.root === '')) {
      return (
        endsWith(recorded.segments, query.segments, caseless) || endsWith(query.segments, recorded.segments, caseless)
      );
    }
    return (
      recorded.root === query.root &&
      recorded.segments.length === query.segments.length &&
      endsWith(recorded.segments, query.segments, caseless)
    );
  }
  return endsWith(recorded.segments, query.segments, caseless) || endsWith(query.segments, recorded.segments, caseless);
}

/** The last segment of a path (what a full-text search for candidates looks for). */
export function baseName(raw: string): string {
  const key = pathKey(raw);
  return key.segments[key.segments.length - 1] ?? '';
}

/** Every path-like token in free text (for "discussed" mentions): words holding a `/` or a `.ext`. */
export function mentionsPath(text: string, query: PathKey, project: string | null = null): boolean {
  const base = query.segments[query.segments.length - 1];
  if (!base || !text.includes(base)) return false;
  for (const match of text.matchAll(/[\w@~.:\\/-]*[\w-]+\.[\w]+|[\w@~.:\\/-]+\/[\w.-]+/g)) {
    const token = match[0].replace(/[.:,;]+$/, '');
    if (!token.includes(base)) continue;
    if (samePath(recordedKey(token, project), query)) return true;
  }
  return false;
}
