// Owns the one directory walk that adapters (and ingest's folder scan) use to discover files:
// bounded depth, skipped folders, no symlinked directories followed, unreadable folders ignored, sorted.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export interface FindFilesOptions {
  /** How many folder levels below `root` to enter (0 = root only). */
  maxDepth: number;
  /** Folder names never entered. */
  skipDirs?: ReadonlySet<string>;
  /** Which files to keep: the file name, its folder and its depth (0 = directly in root). */
  match(name: string, dir: string, depth: number): boolean;
}

export const DEFAULT_SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn']);

export function findFiles(root: string, options: FindFilesOptions): string[] {
  const skip = options.skipDirs ?? DEFAULT_SKIP_DIRS;
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (depth < options.maxDepth && !skip.has(entry.name)) walk(join(dir, entry.name), depth + 1);
      } else if (entry.isFile() && options.match(entry.name, dir, depth)) {
        found.push(join(dir, entry.name));
      }
    }
  };
  walk(root, 0);
  return found.sort();
}
