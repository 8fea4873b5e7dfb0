// Owns how CLI commands reach the store: the data directory from the environment.
import { openStore, type Store } from '../store/db.js';
import { storePath } from '../shared/paths.js';
import type { CliIo } from './io.js';

export function openStoreForWrite(io: CliIo): Store {
  return openStore(storePath(io.env));
}

/**
 * Opens the store for a reading command. It is opened read-write on purpose: a reader migrates an older
 * store, and stores listing rows it finds missing when the write lock is free (it never waits for it);
 * a store that does not exist yet is created empty, so listings print nothing.
 */
export function openStoreForRead(io: CliIo): Store {
  return openStore(storePath(io.env));
}
