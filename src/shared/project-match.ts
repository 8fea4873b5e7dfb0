// Owns how `--project` names sessions' project folders, the one rule every command and the UI share
// (registered in SQL as strata_project_match): whole path segments only, an absolute path names that
// folder and those below it, and `~/x` names x under the home folder of the machine a session ran on.

const SLASH = 47;
/** The home folder at the start of a project path (`/home/u`, `/Users/u`, `/root`, `C:/Users/u`). */
export const HOME_OF_PROJECT = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root|[A-Za-z]:[\\/]Users[\\/][^\\/]+)(?=[\\/]|$)/;
/** `/c/Users/…` (Git Bash, MSYS) and `/mnt/c/Users/…` (WSL) name the folder Windows calls `C:/Users/…`. */
const POSIX_DRIVE = /^(?:\/mnt)?\/([A-Za-z])\/(?=Users\/|users\/)/;
const WINDOWS_DRIVE = /^([a-z]):\//;

/** `/` separators and one spelling of a Windows drive (`C:/Users/x`, whether written `c:\Users\x` or `/c/Users/x`). */
export function forwardSlashes(path: string): string {
  const p = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  if (p.charCodeAt(0) === SLASH)
    return POSIX_DRIVE.test(p) ? p.replace(POSIX_DRIVE, (_, d: string) => `${d.toUpperCase()}:/`) : p;
  return p.charCodeAt(1) === 58 ? p.replace(WINDOWS_DRIVE, (_, d: string) => `${d.toUpperCase()}:/`) : p;
}

function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === SLASH) end--;
  return path.slice(0, end);
}

/** True when `query` (as typed after `--project`) names the project folder `project`. */
export function projectMatches(project: string | null | undefined, query: string): boolean {
  if (!project) return false;
  const path = trimSlashes(forwardSlashes(project));
  const p = path.toLowerCase();
  const q = trimSlashes(forwardSlashes(query.trim())).toLowerCase();
  if (q === '') return false;
  if (q === '~' || q.startsWith('~/')) {
    const home = HOME_OF_PROJECT.exec(path)?.[1];
    if (!home) return false;
    const below = p.slice(home.length);
    const wanted = q.slice(1);
    return below === wanted || below.startsWith(wanted + '/');
  }
  if (q.charCodeAt(0) === SLASH || /^[a-z]:\//.test(q)) return p === q || p.startsWith(q === '/' ? q : q + '/');
  return `/${p}/`.includes(`/${q.replace(/^\.\/|^\/+|\/+$/g, '')}/`);
}
