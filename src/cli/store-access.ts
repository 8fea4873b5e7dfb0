// Owns how CLI commands reach the store: the data directory from the environment, and, while stored
// texts wait for a scan with newer secret rules, a reader's stdout redacted on the way out.
import type { Writable } from 'node:stream';
import { openStore, type Store } from '../store/db.js';
import { storePath } from '../shared/paths.js';
import { RESCAN_PENDING_NOTE, rescanPending } from '../core/redaction/rescan-pending.js';
import { printLine, type CliIo } from './io.js';

export function openStoreForWrite(io: CliIo): Store {
  return openStore(storePath(io.env));
}

type Outgoing = typeof import('../core/redaction/outgoing.js');

/** A JSON text stays JSON: when redacting its text would break it, its values are redacted instead. */
function redactChunk(text: string, rules: Outgoing): string {
  const redacted = rules.redactOutgoingText(text);
  if (redacted === text || !/^\s*[[{]/.test(text)) return redacted;
  try {
    JSON.parse(redacted);
    return redacted;
  } catch {
    try {
      return JSON.stringify(rules.redactOutgoing(JSON.parse(text)), null, 2) + (text.endsWith('\n') ? '\n' : '');
    } catch {
      return redacted;
    }
  }
}

/**
 * The stream with string writes redacted with the current secret rules. The rules load on first use (only
 * a store waiting for a scan needs them): writes made before are held, in order, until they have loaded.
 */
function redactingStream(out: Writable): Writable {
  let rules: Outgoing | undefined;
  const held: unknown[][] = [];
  const pass = (args: unknown[]): boolean => {
    const [chunk, ...rest] = args;
    const text = typeof chunk === 'string' ? redactChunk(chunk, rules!) : chunk;
    return (out.write as (...a: unknown[]) => boolean)(text, ...rest);
  };
  void import('../core/redaction/outgoing.js').then((loaded) => {
    rules = loaded;
    for (const args of held.splice(0)) pass(args);
  });
  const write = (...args: unknown[]): boolean => {
    if (rules) return pass(args);
    held.push(args);
    return true;
  };
  return new Proxy(out, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
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
