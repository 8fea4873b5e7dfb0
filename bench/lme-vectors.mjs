// What the LongMemEval bench needs for its semantic modes: an on-disk cache of vectors keyed by (model,
// sha1 of the text) so a rerun with another fusion embeds nothing, and the fixed stratified sample.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_VECTOR_CACHE = '/tmp/hybrid/vectors';

const sha1 = (text) => createHash('sha1').update(text).digest('hex');

/**
 * `inner` behind a cache in DIR/<model>.tsv (one `sha1<TAB>base64 float32` line per text): only texts
 * never embedded under this model reach the model. `stats` counts what was sent and how long it took.
 */
export function cachedProvider(inner, dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${inner.model.replace(/[^\w.-]+/g, '_')}.tsv`);
  const cache = new Map();
  if (existsSync(file))
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [hash, b64] = line.split('\t');
      if (b64) cache.set(hash, new Float32Array(new Uint8Array(Buffer.from(b64, 'base64')).buffer));
    }
  const stats = { sent: 0, ms: 0, file, cached: cache.size };
  const provider = {
    name: inner.name,
    model: inner.model,
    maxBatch: inner.maxBatch,
    async embed(texts) {
      const keys = texts.map(sha1);
      const missing = [...new Set(keys.filter((k) => !cache.has(k)))];
      if (missing.length) {
        const t0 = performance.now();
        const vectors = await inner.embed(missing.map((k) => texts[keys.indexOf(k)]));
        stats.ms += performance.now() - t0;
        stats.sent += missing.length;
        const lines = missing.map((k, i) => {
          cache.set(k, vectors[i]);
          const v = vectors[i];
          return `${k}\t${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')}`;
        });
        appendFileSync(file, `${lines.join('\n')}\n`);
      }
      return keys.map((k) => cache.get(k));
    },
  };
  return { provider, stats };
}

/**
 * Per question type, the `k` questions whose id has the smallest sha1: the same sample on every machine,
 * types interleaved so that a run cut short still covers each of them.
 */
export function stratified(questions, k) {
  const byType = new Map();
  for (const q of questions) byType.set(q.question_type, [...(byType.get(q.question_type) ?? []), q]);
  const picked = [...byType.keys()].sort().map((t) =>
    byType
      .get(t)
      .map((q) => ({ q, h: sha1(q.question_id) }))
      .sort((a, b) => (a.h < b.h ? -1 : 1))
      .slice(0, k)
      .map((x) => x.q),
  );
  return Array.from({ length: k }, (_, i) => picked.map((qs) => qs[i]).filter(Boolean)).flat();
}
