// Owns how the ingest worker hands block texts to the writer thread: as UTF-8 bytes in one transferred
// buffer per batch instead of JavaScript strings. A string crossing threads is copied twice (serialized,
// then deserialized into the writer's heap) and converted to UTF-8 a third time when SQLite binds it;
// bytes cross without a copy and are bound as they are (the store casts them to TEXT). The indexed text
// (see fts-text.ts) is laid out right after the text, so that in the common case both are one range.
// The JSON columns (message and block meta, a tool input that is not the text) travel the same way.
import type { PreparedBlock, PreparedMessage, StoredText } from '../../../store/prepared-message.js';
import type { PreparedOutput } from '../prepare.js';

/**
 * The buffer starts at the batch's UTF-16 length plus an eighth (most text is ASCII: 1 byte per unit)
 * and doubles if that is not enough: a tiny file's batch does not hold kilobytes it never uses.
 */
const initialCapacity = (units: number): number => units + (units >> 3) + 64;

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

const lengthOf = (value: StoredText | null): number => (typeof value === 'string' ? value.length : 0);

function unitsOf(block: PreparedBlock): number {
  const columns = lengthOf(block.toolInput) + lengthOf(block.meta);
  if (typeof block.text !== 'string' || block.text.length === 0) return columns;
  const tail = block.ftsTail.length > 0 ? block.ftsTail.length + 1 : 0;
  return columns + block.text.length + tail + (block.ftsBody === null ? 0 : block.ftsBody.length);
}

/** A JSON column (meta, tool input) to pack: a non-empty string ('' marks a tool input stored as its text). */
function packable(value: StoredText | null): value is string {
  return typeof value === 'string' && value.length > 0;
}

/**
 * Replaces the text of every block in `output` by its UTF-8 bytes and sets `ftsBytes` to the indexed
 * text's bytes, and likewise the JSON columns (message and block meta, tool input): views into one new
 * buffer, which is returned to be transferred with the batch.
 */
export function packTexts(output: PreparedOutput): ArrayBuffer {
  let units = 0;
  for (const message of output.messages) {
    units += lengthOf(message.meta);
    for (const block of message.blocks) units += unitsOf(block);
  }
  const out = new ByteWriter(initialCapacity(units));
  const texts: [PreparedBlock, number, number, number, number][] = [];
  const metas: [PreparedMessage | PreparedBlock, number, number][] = [];
  const inputs: [PreparedBlock, number, number][] = [];
  const write = (value: StoredText | null): [number, number] | undefined => {
    if (!packable(value)) return undefined;
    const start = out.length;
    out.write(value);
    return [start, out.length];
  };
  for (const message of output.messages) {
    const meta = write(message.meta);
    if (meta) metas.push([message, ...meta]);
    for (const block of message.blocks) {
      const blockMeta = write(block.meta);
      if (blockMeta) metas.push([block, ...blockMeta]);
      const input = write(block.toolInput);
      if (input) inputs.push([block, ...input]);
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
      texts.push([block, start, end, ftsStart, out.length]);
    }
  }
  // Views are made last: the buffer may have been replaced while it grew.
  const bytes = out.buffer.buffer as ArrayBuffer;
  for (const [block, start, end, ftsStart, ftsEnd] of texts) {
    block.text = new Uint8Array(bytes, start, end - start);
    block.ftsBytes = new Uint8Array(bytes, ftsStart, ftsEnd - ftsStart);
    block.ftsBody = null;
    block.ftsTail = '';
  }
  for (const [row, start, end] of metas) row.meta = new Uint8Array(bytes, start, end - start);
  for (const [block, start, end] of inputs) block.toolInput = new Uint8Array(bytes, start, end - start);
  return bytes;
}
