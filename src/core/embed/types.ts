// Owns the embedding provider contract: texts in, one unit-length float32 vector per text out, in order.
// Every provider passes test/support/embedding-contract.ts.

export interface EmbeddingProvider {
  /** 'openai-compatible' or 'offline'. */
  readonly name: string;
  /** Stored with each vector: vectors of different models are never compared. */
  readonly model: string;
  /** The endpoint, for a provider that has one (stored so a later search can embed its query). */
  readonly baseUrl?: string;
  /** At most this many texts per `embed` call. */
  readonly maxBatch: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Passages are cut to this many characters before embedding (models read ~256–512 tokens anyway). */
export const MAX_PASSAGE_CHARS = 2000;

export function normalize(values: ArrayLike<number>): Float32Array {
  const v = Float32Array.from(values);
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}
