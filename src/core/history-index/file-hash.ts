// Owns the streamed SHA-256 of a history file: the index's contentHash, compared before any parsing so
// an unchanged history costs one read.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk as Buffer))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
