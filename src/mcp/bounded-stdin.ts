// Owns the size of one MCP request read from stdin: a line longer than MAX_REQUEST_BYTES is dropped as it
// streams in and answered with a one-line JSON-RPC error, so one huge request (a 2-million-word query)
// neither fills memory nor ends the session (the SDK's transport closes on a message past its buffer).
import { Transform, type TransformCallback } from 'node:stream';

/** At most this many bytes in one request: every tool's arguments are far smaller. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
const EDGE_BYTES = 4096;

/** The request id, when the head or the tail of a dropped request names it (clients put it first or last). */
function requestId(head: string, tail: string): string | number | null {
  const value = /^("(?:[^"\\]|\\.)*"|-?\d+)/;
  const first = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(.*)$/s.exec(head);
  const last = /,\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*\}\s*$/.exec(tail);
  const raw = (first ? value.exec(first[1]!)?.[1] : undefined) ?? last?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return null;
  }
}

/** Passes stdin's lines through whole; a line past `max` bytes is dropped and answered through `reply`. */
export class BoundedLines extends Transform {
  private line: Buffer[] = [];
  private lineBytes = 0;
  private dropping = false;
  private head = '';
  private tail = Buffer.alloc(0);

  constructor(
    private readonly reply: (line: string) => void,
    private readonly max = MAX_REQUEST_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.addToLine(chunk.subarray(start, nl + 1));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.addToLine(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.dropping && this.lineBytes > 0) this.push(Buffer.concat(this.line));
    done();
  }

  private addToLine(part: Buffer): void {
    if (!this.dropping && this.lineBytes + part.length > this.max) {
      this.head = Buffer.concat([...this.line, part.subarray(0, EDGE_BYTES)])
        .subarray(0, EDGE_BYTES)
        .toString('utf8');
      [this.line, this.dropping] = [[], true];
    }
    this.lineBytes += part.length;
    if (!this.dropping) this.line.push(Buffer.from(part));
    else this.tail = Buffer.concat([this.tail, part]).subarray(-EDGE_BYTES);
  }

  private endLine(): void {
    if (this.dropping) {
      const id = requestId(this.head, this.tail.toString('utf8'));
      const [size, max] = [this.lineBytes, this.max].map((n) => n.toLocaleString('en-US'));
      const message = `strata: request of ${size} bytes refused (at most ${max})`;
      this.reply(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
    } else this.push(Buffer.concat(this.line));
    [this.line, this.lineBytes, this.dropping, this.head, this.tail] = [[], 0, false, '', Buffer.alloc(0)];
  }
}
