// Owns how a typed project name matches a stored path: whole path segments, either separator.

/** True when `path` holds the segments of `typed` in a row (`work` matches /a/work/b, not /workspace). */
export function pathHasSegments(path: string, typed: string): boolean {
  const parts = (p: string) => p.split(/[\\/]+/).filter(Boolean);
  const hay = parts(path);
  const needle = parts(typed);
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    if (needle.every((seg, j) => hay[i + j] === seg)) return true;
  }
  return false;
}
