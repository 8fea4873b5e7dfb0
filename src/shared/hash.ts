// Owns content hashing helpers used for incremental state and stable ids.
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

// node:crypto loads on the first hash, not with the module: a search (session ids import this) never hashes,
// and loading it costs a short-lived command several milliseconds.
function createHash(algorithm: string) {
  crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return crypto.createHash(algorithm);
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha1(data: string | Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}
