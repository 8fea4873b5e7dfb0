// Owns writing a client's configuration file safely: the new text is computed from the current one
// (a file that cannot be parsed is refused before anything is written), an unchanged result writes
// nothing, and a changed file is first copied to a timestamped backup, then replaced atomically.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../shared/atomic-write.js';

export interface ConfigWrite {
  path: string;
  status: 'created' | 'updated' | 'unchanged';
  /** The copy of the previous file (updated files only). */
  backup?: string;
}

export function writeConfigFile(
  path: string,
  merge: (current: string | undefined) => string,
  now: Date = new Date(),
): ConfigWrite {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const next = merge(current);
  if (current === next) return { path, status: 'unchanged' };
  if (current === undefined) {
    writeFileAtomic(path, next);
    return { path, status: 'created' };
  }
  const backup = `${path}.strata-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  copyFileSync(path, backup);
  writeFileAtomic(path, next);
  return { path, status: 'updated', backup };
}
