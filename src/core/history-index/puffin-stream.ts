// Owns the streaming read of big Puffin histories as an async iterator: the Puffin adapter's token
// walker (src/sources/puffin/token-walker.ts) assembles one raw prompt at a time; the parser is paused
// while the consumer is behind, so memory stays bounded by a few prompts, not the file.
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import Parser from 'stream-json/Parser.js';
import { PuffinTokenWalker, type Token } from '../../sources/puffin/token-walker.js';
import type { BranchInfo } from '../../sources/puffin/thread-builder.js';

export type PuffinStreamItem =
  | { kind: 'prompt'; branchKey: string; raw: unknown }
  | { kind: 'branch'; branchKey: string; info: BranchInfo }
  | { kind: 'skipped'; type: string };

export interface PuffinStreamEnd {
  /** SHA-256 of the bytes read (the whole file when no error stopped the read). */
  sha256: string;
  /** False when the root is not an object with a `branches` object. */
  isPuffin: boolean;
  /** Set when the JSON is truncated or corrupt: prompts completed before it were yielded. */
  error?: { offset: number; line: number; message: string };
}

const HIGH_WATER = 256;

/** Yields raw prompts and branch ends in file order; the generator's return value describes the end. */
export async function* streamPuffinItems(path: string): AsyncGenerator<PuffinStreamItem, PuffinStreamEnd, void> {
  const queue: PuffinStreamItem[] = [];
  const hash = createHash('sha256');
  let bytes = 0;
  let newlines = 0;
  let done = false;
  let error: PuffinStreamEnd['error'];
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const walker = new PuffinTokenWalker({
    prompt: (branchKey, raw) => void queue.push({ kind: 'prompt', branchKey, raw }),
    branchEnd: (branchKey, info) => void queue.push({ kind: 'branch', branchKey, info }),
    skipped: (type) => void queue.push({ kind: 'skipped', type }),
  });
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  const parser = new Parser({ packValues: true, streamValues: false });
  const finish = (err?: Error): void => {
    if (done) return;
    done = true;
    if (err) error = { offset: bytes, line: newlines + 1, message: err.message };
    input.destroy();
    notify();
  };
  input.on('data', (chunk) => {
    const buf = chunk as Buffer;
    bytes += buf.length;
    hash.update(buf);
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) newlines++;
  });
  input.on('error', finish);
  parser.on('error', finish);
  parser.on('end', () => finish());
  parser.on('data', (token: Token) => {
    if (done) return;
    try {
      walker.token(token);
    } catch (err) {
      finish(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (queue.length >= HIGH_WATER) parser.pause();
    if (queue.length > 0) notify();
  });
  input.pipe(parser);
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (done) break;
      if (parser.isPaused()) parser.resume();
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (queue.length > 0 || done) notify();
      });
    }
  } finally {
    if (!done) {
      done = true;
      input.destroy();
      parser.destroy();
    }
  }
  const isPuffin = walker.rootKind === 'object' && (walker.sawBranches || error !== undefined);
  return { sha256: hash.digest('hex'), isPuffin, ...(error ? { error } : {}) };
}
