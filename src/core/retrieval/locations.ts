// Owns "significant locations": where a session's work happened, at the right granularity. Work per
// file is lines added + removed (at least 1 per edit). Two thresholds: a location is significant when it
// holds > 30% of the total work; we descend into a child instead when that child holds > 50% of its
// parent's work (and is itself significant), so concentrated work is named precisely and spread work
// is named by the folder that contains it.

import { forwardSlashes, HOME_OF_PROJECT } from '../../shared/project-match.js';

export const TOTAL_THRESHOLD = 0.3;
export const PARENT_THRESHOLD = 0.5;
/** Folder levels a location tree holds (a hostile path may have thousands). */
export const MAX_PATH_DEPTH = 64;

export { forwardSlashes };

interface Node {
  name: string;
  work: number;
  isFile: boolean;
  children: Map<string, Node>;
}

/** The home folder of the machine a session ran on, inferred from its project path, else this machine's. */
export function sessionHome(project: string | null, fallback: string | null): string | null {
  const m = project ? HOME_OF_PROJECT.exec(forwardSlashes(project)) : null;
  return m ? m[1]!.replace(/\\/g, '/') : fallback;
}

/** A path as shown: relative inside the project, `~/` under home, absolute otherwise; `/` separators. */
export function displayPath(path: string, project: string | null, home: string | null): string {
  const p = forwardSlashes(path);
  const proj = project == null ? undefined : withoutTrailingSlashes(forwardSlashes(project));
  if (proj && p.startsWith(proj) && p.charCodeAt(proj.length) === SLASH) return p.slice(proj.length + 1);
  if (proj && p === proj) return '.';
  const h = home ? withoutTrailingSlashes(forwardSlashes(home)) : '';
  if (home && p === h) return '~';
  if (home && p.startsWith(h) && p.charCodeAt(h.length) === SLASH) return '~/' + p.slice(h.length + 1);
  return p.startsWith('./') ? p.slice(2) : p;
}

const SLASH = 47;

/** `x.replace(/\/+$/, '')` without a regular expression. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  return end === path.length ? path : path.slice(0, end);
}

function buildTree(files: Record<string, number>): Node {
  const root: Node = { name: '', work: 0, isFile: false, children: new Map() };
  for (const [path, work] of Object.entries(files)) {
    if (work <= 0) continue;
    const parts = path.split('/');
    // keep a leading '/' (absolute) or '~' as its own first segment
    const all = parts[0] === '' ? ['/', ...parts.slice(1)] : parts;
    // A path deeper than MAX_PATH_DEPTH keeps the rest as one segment: tree and walk stay bounded.
    const segments =
      all.length > MAX_PATH_DEPTH
        ? [...all.slice(0, MAX_PATH_DEPTH - 1), all.slice(MAX_PATH_DEPTH - 1).join('/')]
        : all;
    let node = root;
    root.work += work;
    segments.forEach((seg, i) => {
      if (seg === '' && i > 0) return;
      let child = node.children.get(seg);
      if (!child) {
        const name = node === root ? seg : node.name === '/' ? `/${seg}` : `${node.name}/${seg}`;
        child = { name, work: 0, isFile: false, children: new Map() };
        node.children.set(seg, child);
      }
      child.work += work;
      node = child;
    });
    node.isFile = true;
  }
  return root;
}

function visit(node: Node, total: number, out: string[]): void {
  if (node.work <= TOTAL_THRESHOLD * total) return;
  let dominant: Node | undefined;
  for (const child of node.children.values()) if (child.work > PARENT_THRESHOLD * node.work) dominant = child;
  if (!dominant || dominant.work <= TOTAL_THRESHOLD * total) {
    out.push(node.isFile && node.children.size === 0 ? node.name : `${node.name === '/' ? '' : node.name}/`);
    return;
  }
  visit(dominant, total, out);
  for (const child of node.children.values()) if (child !== dominant) visit(child, total, out);
}

/**
 * Significant locations of a work map whose keys are display paths (see `displayPath`), heaviest first.
 * The implicit root (all files) is never itself reported.
 */
export function significantLocations(files: Record<string, number>): string[] {
  const root = buildTree(files);
  const out: string[] = [];
  const children = [...root.children.values()].sort((a, b) => b.work - a.work);
  for (const child of children) visit(child, root.work, out);
  return out;
}
