// Owns writing a client's configuration file safely: the new text is computed from the current one
// (a file that cannot be parsed is refused before anything is written), an unchanged result writes
// nothing, and a changed file is first copied to a timestamped backup, then replaced atomically with
// its mode and owner kept. A symlinked file (dotfiles) is written through to its target; a dangling
// link, a folder, a FIFO or another non-regular file, and a read-only file are refused in one line.
import {
  closeSync,
  copyFileSync,
  fstatSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { StrataError } from '../../shared/errors.js';
import { openRegularFileSync } from '../../shared/regular-file.js';

export interface ConfigWrite {
  path: string;
  status: 'created' | 'updated' | 'unchanged';
  /** The copy of the previous file (updated files only). */
  backup?: string;
}

interface ConfigTarget {
  /** The file written: `path` itself, or the end of its symlinks. */
  file: string;
  text?: string;
  stat?: Stats;
}

const refuse = (path: string, why: string) => new StrataError('CONFIG', `${path} ${why}; left it unchanged`);

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Where `path` leads and what it holds now; CONFIG for anything strata must not replace. */
function configTarget(path: string): ConfigTarget {
  const link = lstatOrUndefined(path);
  if (!link) return { file: path };
  let file = path;
  if (link.isSymbolicLink()) {
    try {
      file = realpathSync(path);
    } catch {
      throw refuse(path, `is a symbolic link to ${readlinkSync(path)}, which does not exist`);
    }
  }
  let fd: number;
  try {
    fd = openRegularFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTREG') throw error;
    if (lstatSync(file).isDirectory()) throw refuse(path, 'is a folder, not a file');
    throw refuse(path, `is ${(error as Error).message}`);
  }
  try {
    return { file, text: readFileSync(fd, 'utf8'), stat: fstatSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/** The current text of a configuration file, or undefined when there is none; refuses like writeConfigFile. */
export function readConfigFile(path: string): string | undefined {
  return configTarget(path).text;
}

export function writeConfigFile(
  path: string,
  merge: (current: string | undefined) => string,
  now: Date = new Date(),
): ConfigWrite {
  const { file, text: current, stat } = configTarget(path);
  // A file its owner made read-only is the owner's to change: strata says so rather than replace it.
  if (stat && (stat.mode & 0o200) === 0)
    throw refuse(
      path,
      `is read-only (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}): make it writable first`,
    );
  const next = merge(current);
  if (current === next) return { path, status: 'unchanged' };
  if (current === undefined || !stat) {
    writeFileAtomic(file, next);
    return { path, status: 'created' };
  }
  const backup = `${path}.strata-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  copyFileSync(file, backup);
  writeFileAtomic(file, next, { mode: stat.mode & 0o7777, owner: { uid: stat.uid, gid: stat.gid } });
  return { path, status: 'updated', backup };
}
