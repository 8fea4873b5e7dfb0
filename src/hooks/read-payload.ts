// Owns reading a hook's stdin: at most MAX_PAYLOAD_BYTES, and only up to the end of the first JSON value,
// so a client that writes its payload and keeps the pipe open (or a stream with no end) never holds a hook.
import { StrataError } from '../shared/errors.js';

/** The largest payload a hook reads (clients send a few hundred bytes: paths, ids, the event name). */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = /^[\t\n\r ]$/;

/** Where the first JSON object or array ends, scanned chunk by chunk (its structure is ASCII, so bytes do). */
class FirstValueScanner {
  private depth = 0;
  private started = false;
  private inString = false;
  private escaped = false;
  /** True once the first value is complete, or the input does not start with an object or array. */
  done = false;

  /** Scans `chunk`; returns how many of its bytes belong to the payload (all of them until done). */
  feed(chunk: Buffer): number {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (!this.started) {
        if (SPACE.test(String.fromCharCode(byte))) continue;
        if (byte !== 0x7b && byte !== 0x5b) {
          // Not an object: no payload strata reads (parseHookPayload makes it an empty one).
          this.done = true;
          return i;
        }
        this.started = true;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if ((byte === 0x7d || byte === 0x5d) && --this.depth === 0) {
        this.done = true;
        return i + 1;
      }
    }
    return chunk.length;
  }
}

/**
 * The payload text: the first JSON value of `input` (or all of it, if it never completes, up to its end).
 * More than `maxBytes` before the value ends is an error (exit 1); the rest of the stream is never read.
 */
export async function readHookPayload(
  input: AsyncIterable<Buffer | string>,
  maxBytes = MAX_PAYLOAD_BYTES,
): Promise<string> {
  const scanner = new FirstValueScanner();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    const kept = scanner.feed(chunk);
    total += kept;
    if (total > maxBytes) {
      throw new StrataError('INVALID_INPUT', `hook payload larger than ${maxBytes / 1024 / 1024} MB; nothing done`);
    }
    chunks.push(kept === chunk.length ? chunk : chunk.subarray(0, kept));
    if (scanner.done) break; // leaving the loop closes the stream: what follows is never read
  }
  return Buffer.concat(chunks).toString('utf8');
}
