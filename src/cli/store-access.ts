// Owns how CLI commands reach the store: the data directory from the environment, and, while stored
// texts wait for a scan with newer secret rules, a reader's stdout redacted on the way out.
import type { Writable } from 'node:stream';
import { openStore, type Store } from '../store/db.js';
import { storePath } from '../shared/paths.js';
import { RESCAN_PENDING_NOTE, redactOutgoing, redactOutgoingText, rescanPending } from '../core/redaction/outgoing.js';
import { printLine, type CliIo } from './io.js';

export function openStoreForWrite(io: CliIo): Store {
  return openStore(storePath(io.env));
}

/** A JSON text stays JSON: when redacting its text would break it, its values are redacted instead. */
function redactChunk(text: string): string {
  const redacted = redactOutgoingText(text);
  if (redacted === text || !/^\s*[[{]/.test(text)) return redacted;
  try {
    JSON.parse(redacted);
    return redacted;
  } catch {
    try {
      return JSON.stringify(redactOutgoing(JSON.parse(text)), null, 2) + (text.endsWith('\n') ? '\n' : '');
    } catch {
      return redacted;
    }
  }
}

/** The stream with string writes redacted with the current secret rules. */
function redactingStream(out: Writable): Writable {
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (out.write as (...args: unknown[]) => boolean)(typeof chunk === 'string' ? redactChunk(chunk) : chunk, ...rest);
  return new Proxy(out, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Opens the store for a reading command. It is opened read-write on purpose: a reader migrates an older
 * store, and stores listing rows it finds missing when the write lock is free (it never waits for it);
 * a store that does not exist yet is created empty, so listings print nothing. While a scan with newer
 * secret rules is pending, the command's stdout is redacted with them, and stderr says so.
 */
export function openStoreForRead(io: CliIo): Store {
  const store = openStore(storePath(io.env));
  if (rescanPending(store.db)) {
    printLine(io.stderr, `strata: ${RESCAN_PENDING_NOTE}`);
    io.stdout = redactingStream(io.stdout);
  }
  return store;
}
