// Owns JSON too long to hold whole (one 100 MB tool output in a transcript line or a session file): past
// LONG_LINE_BYTES, its string values are cut as its bytes stream by, each cut saying how much was left out
// and where the whole text is, so ingest never holds the text, its parse and its stored copy at once.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFileSync } from './regular-file.js';

/** A line longer than this streams through a LineShrinker instead of being joined whole. */
export const LONG_LINE_BYTES = 16 * 1024 * 1024;
/** What a long line keeps of each string value (its raw JSON bytes); 4 KB once the kept line is this long. */
export const STRING_KEEP_BYTES = 4 * 1024 * 1024;
const STRING_KEEP_LATE = 4 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where a cut text is whole: a line of the source file, or the file. */
export const sourceLine = (line: number): string => `line ${line} of the source file`;

/** The note that ends a cut string: plain text, valid inside a JSON string. */
export function cutNote(bytesLeft: number, where: string): string {
  const left = bytesLeft.toLocaleString('en-US');
  return ` …[strata: ${left} more bytes of this text were not stored; the whole text is ${where}]`;
}

/** Takes long JSON's bytes chunk by chunk; `finish` gives it with its long strings cut. */
export class LineShrinker {
  private readonly out: Buffer[] = [];
  private outBytes = 0;
  private inString = false;
  /** Bytes still part of an escape (`\n`: 1 after the backslash; `\uXXXX`: up to 5). */
  private escape = 0;
  private stringBytes = 0;
  private skipping = false;
  private skipped = 0;

  /** `where`: what the notes name as holding the whole text. */
  constructor(private readonly where: string) {}

  push(chunk: Buffer): void {
    let run = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (!this.inString) {
        if (b === QUOTE) [this.inString, this.stringBytes] = [true, 0];
        continue;
      }
      if (this.escape > 0) {
        // `\u` takes four hex digits more; any other escape is one character.
        this.escape = this.escape === 1 && b === 0x75 ? 4 : this.escape - 1;
        this.count();
        continue;
      }
      if (b === BACKSLASH) {
        this.escape = 1;
        this.count();
        continue;
      }
      if (b === QUOTE) {
        if (this.skipping) {
          this.emit(Buffer.from(cutNote(this.skipped, this.where)));
          [this.skipping, run] = [false, i];
        }
        this.inString = false;
        continue;
      }
      // A cut falls on the first byte of a character, never inside one or inside an escape.
      if (!this.skipping && this.stringBytes >= this.keep() && (b < 0x80 || b >= 0xc0)) {
        this.emit(Buffer.from(chunk.subarray(run, i)));
        this.skipping = true;
      }
      this.count();
    }
    if (!this.skipping) this.emit(Buffer.from(chunk.subarray(run)));
  }

  /** The line as kept (its last string still open when the line itself was cut short). */
  finish(): Buffer {
    return Buffer.concat(this.out, this.outBytes);
  }

  private keep(): number {
    return this.outBytes < LONG_LINE_BYTES ? STRING_KEEP_BYTES : STRING_KEEP_LATE;
  }

  private count(): void {
    if (this.skipping) this.skipped++;
    else this.stringBytes++;
  }

  private emit(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.out.push(bytes);
    this.outBytes += bytes.length;
  }
}

/** A JSON (or JSONL) source file as text; past LONG_LINE_BYTES, its long strings cut as it is read. */
export function readJsonSource(path: string): string {
  const fd = openRegularFileSync(path);
  try {
    const size = fstatSync(fd).size;
    const shrinker = size > LONG_LINE_BYTES ? new LineShrinker('in the source file') : undefined;
    const chunk = Buffer.allocUnsafe(Math.min(size, 1024 * 1024) || 1);
    const whole: Buffer[] = [];
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      if (shrinker) shrinker.push(chunk.subarray(0, n));
      else whole.push(Buffer.from(chunk.subarray(0, n)));
    }
    return (shrinker ? shrinker.finish() : Buffer.concat(whole)).toString('utf8').replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}
