// Owns the one directory walk that adapters (and ingest's folder scan) use to discover files:
// bounded depth, skipped folders, no symlinked directories followed, sorted. What it passes over (an
// unreadable folder, a FIFO, a symlink, a name that is not UTF-8) goes to `onSkipped` with the reason.
import { readdirSync, type Dirent } from 'node:fs';
import { hasUnreadableName } from '../shared/regular-file.js';
import { join } from 'node:path';

export interface FindFilesOptions {
  /** How many folder levels below `root` to enter (0 = root only). */
  maxDepth: number;
  /** Folder names never entered. */
  skipDirs?: ReadonlySet<string>;
  /** Which files to keep: the file name, its folder and its depth (0 = directly in root). */
  match(name: string, dir: string, depth: number): boolean;
  /** Told of each entry passed over that is not a skipped folder: unreadable, not a regular file, or unnamable. */
  onSkipped?(path: string, reason: string): void;
  /** Told of each FIFO, socket or device whose name `match` accepts (symlinks are not followed, not told). */
  onSkippedMatch?(path: string, reason: string): void;
}

function entryKind(entry: Dirent): string {
  if (entry.isSymbolicLink()) return 'symbolic link (not followed)';
  if (entry.isFIFO()) return 'not a regular file (FIFO)';
  if (entry.isSocket()) return 'not a regular file (socket)';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'not a regular file (device)';
  return 'not a regular file';
}

const DEFAULT_SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn']);

export function findFiles(root: string, options: FindFilesOptions): string[] {
  const skip = options.skipDirs ?? DEFAULT_SKIP_DIRS;
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (depth > 0 || (error as NodeJS.ErrnoException).code !== 'ENOENT') {
        options.onSkipped?.(
          dir,
          `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      return;
    }
    for (const entry of entries) {
      if (options.onSkipped && hasUnreadableName(dir, entry.name)) {
        options.onSkipped(join(dir, entry.name), 'its name is not valid UTF-8; rename it to ingest it');
      } else if (entry.isDirectory()) {
        if (depth < options.maxDepth && !skip.has(entry.name)) walk(join(dir, entry.name), depth + 1);
      } else if (entry.isFile()) {
        if (options.match(entry.name, dir, depth)) found.push(join(dir, entry.name));
      } else {
        options.onSkipped?.(join(dir, entry.name), entryKind(entry));
        if (options.onSkippedMatch && !entry.isSymbolicLink() && options.match(entry.name, dir, depth))
          options.onSkippedMatch(join(dir, entry.name), entryKind(entry));
      }
    }
  };
  walk(root, 0);
  return found.sort();
}
