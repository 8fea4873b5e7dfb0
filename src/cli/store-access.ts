// Owns how CLI commands reach the store: the data directory from the environment, read or write mode.
import { existsSync } from 'node:fs';
import { openStore, type Store } from '../store/db.js';
import { storePath } from '../shared/paths.js';
import { StrataError } from '../shared/errors.js';
import type { CliIo } from './io.js';

export function openStoreForWrite(io: CliIo): Store {
  return openStore(storePath(io.env));
}

/** Opens the store for reading; a store that does not exist yet is created empty so listings print nothing. */
export function openStoreForRead(io: CliIo): Store {
  const path = storePath(io.env);
  if (!existsSync(path)) return openStore(path);
  try {
    return openStore(path, { readonly: false });
  } catch (error) {
    if (error instanceof StrataError) throw error;
    throw error;
  }
}
