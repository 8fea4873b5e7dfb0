// Owns stable chunk ids (spec §3): `<doc>:` + the first 10 hex digits of SHA-1 over the doc name,
// the normalised title path and the SHA-256 of the chunk text. Inserting or editing one section
// changes no other chunk's id.
import * as crypto from 'node:crypto';
import { sha1, sha256 } from '../../shared/hash.js';

// One-shot hashing (Node >= 20.12) avoids a Hash object per chunk; same digests as shared/hash.ts.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;
const sha256Hex = (s: string): string => (oneShot ? oneShot('sha256', s, 'hex') : sha256(s));
const sha1Hex = (s: string): string => (oneShot ? oneShot('sha1', s, 'hex') : sha1(s));

/** Lower-cases, trims and collapses spaces in each title, joined with the unit separator. */
export function normalizeTitlePath(path: readonly string[]): string {
  return path.map((p) => p.trim().toLowerCase().replace(/\s+/g, ' ')).join('\x1f');
}

/** The stable id of a chunk; `occurrence` > 1 disambiguates identical sections in one doc. */
export function chunkId(doc: string, titlePath: readonly string[], text: string, occurrence = 1): string {
  let seed = `${doc}\n${normalizeTitlePath(titlePath)}\n${sha256Hex(text)}`;
  if (occurrence > 1) seed += `\n#${occurrence}`;
  return `${doc}:${sha1Hex(seed).slice(0, 10)}`;
}

/** Splits `doc:hex` into its parts (the doc may itself contain colons). */
export function parseChunkId(id: string): { doc: string; hash: string } | undefined {
  const m = /^(.+):([0-9a-f]{10})$/.exec(id);
  return m ? { doc: m[1] ?? '', hash: m[2] ?? '' } : undefined;
}
