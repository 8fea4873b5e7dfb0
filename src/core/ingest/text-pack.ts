// Owns how the ingest worker hands block texts to the writer thread: as UTF-8 bytes in one transferred
// buffer per batch instead of JavaScript strings. A string crossing threads is copied twice (serialized,
// then deserialized into the writer's heap) and converted to UTF-8 a third time when SQLite binds it;
// bytes cross without a copy and are bound as they are (the store casts them to TEXT). The indexed text
// (see fts-text.ts) is laid out right after the text, so that in the common case both are one range.
import type { PreparedBlock } from '../../store/prepared-message.js';
import type { PreparedOutput } from './apply.js';

/** Bytes the buffer starts with beyond the batch's UTF-16 length (most text is ASCII: 1 byte per unit). */
const SLACK = 4096;

class ByteWriter {
  buffer: Buffer;
  length = 0;

  constructor(capacity: number) {
    // Its own ArrayBuffer (not Node's shared pool), so that it can be transferred.
    this.buffer = Buffer.from(new ArrayBuffer(capacity));
  }

  write(text: string): void {
    if (text.length === 0) return;
    // A UTF-16 unit takes at most 3 UTF-8 bytes; count exactly only when that bound does not fit.
    if (this.buffer.length - this.length < text.length * 3) this.reserve(Buffer.byteLength(text));
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  writeNewline(): void {
    this.reserve(1);
    this.buffer[this.length++] = 10;
  }

  private reserve(bytes: number): void {
    if (this.buffer.length - this.length >= bytes) return;
    const grown = Buffer.from(new ArrayBuffer(Math.max(this.buffer.length * 2, this.length + bytes)));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

function unitsOf(block: PreparedBlock): number {
  if (typeof block.text !== 'string' || block.text.length === 0) return 0;
  const tail = block.ftsTail.length > 0 ? block.ftsTail.length + 1 : 0;
  return block.text.length + tail + (block.ftsBody === null ? 0 : block.ftsBody.length);
}

/**
 * Replaces the text of every block in `output` by its UTF-8 bytes and sets `ftsBytes` to the indexed
 * text's bytes, both views into one new buffer, which is returned to be transferred with the batch.
 */
export function packTexts(output: PreparedOutput): ArrayBuffer {
  let units = 0;
  for (const message of output.messages) for (const block of message.blocks) units += unitsOf(block);
  const out = new ByteWriter(units + SLACK);
  const ranges: [PreparedBlock, number, number, number, number][] = [];
  for (const message of output.messages) {
    for (const block of message.blocks) {
      const text = block.text;
      if (typeof text !== 'string' || text.length === 0) continue;
      const start = out.length;
      out.write(text);
      const end = out.length;
      // Indexed text = (body ?? text) + '\n' + tail: right after the text when the body is the text.
      let ftsStart = start;
      if (block.ftsBody !== null) {
        ftsStart = out.length;
        out.write(block.ftsBody);
      }
      if (block.ftsTail.length > 0) {
        out.writeNewline();
        out.write(block.ftsTail);
      }
      ranges.push([block, start, end, ftsStart, out.length]);
    }
  }
  // Views are made last: the buffer may have been replaced while it grew.
  const bytes = out.buffer.buffer as ArrayBuffer;
  for (const [block, start, end, ftsStart, ftsEnd] of ranges) {
    block.text = new Uint8Array(bytes, start, end - start);
    block.ftsBytes = new Uint8Array(bytes, ftsStart, ftsEnd - ftsStart);
    block.ftsBody = null;
    block.ftsTail = '';
  }
  return bytes;
}
