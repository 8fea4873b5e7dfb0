// Owns redaction of a doc's chunks before they are id'd, indexed and written: a pack never holds a
// secret that a doc in the repository does. Chunks are redacted one by one, so their line numbers
// still point into the file.
import { redactText } from '../../shared/redact/index.js';
import type { RawChunk } from './types.js';

export function redactChunk(chunk: RawChunk): RawChunk {
  const text = redactText(chunk.text).text;
  const body = redactText(chunk.body).text;
  const titlePath = chunk.title_path.map((title) => redactText(title).text);
  return { ...chunk, title_path: titlePath, text, body };
}
