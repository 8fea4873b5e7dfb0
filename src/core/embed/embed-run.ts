// Owns `strata embed`: vectors for every passage that has none yet under the provider's model, in batches
// committed one at a time (an interrupted run resumes where it stopped), identical texts embedded once
// (the store's vectors are the cache: a text already embedded under this model is never sent again).
import type { Database } from 'better-sqlite3';
import { sha1 } from '../../shared/hash.js';
import {
  countPassages,
  countPendingAfter,
  embeddingModels,
  ensureEmbeddingTables,
  fromBlob,
  pendingPassages,
  recordEmbeddingModel,
  vectorForHash,
  writeVectors,
} from '../../store/embeddings.js';
import { MAX_PASSAGE_CHARS, type EmbeddingProvider } from './types.js';

export interface EmbedProgress {
  done: number;
  total: number;
}

export interface EmbedReport {
  provider: string;
  model: string;
  /** Passages that now have a vector (before this run and during it). */
  embedded: number;
  total: number;
  /** Texts sent to the provider by this run. */
  sent: number;
  /** Passages given the stored vector of an identical text. */
  reused: number;
  seconds: number;
  /** Set when the run stopped early (budget or provider error): what was written is kept. */
  stopped?: string;
}

export interface EmbedRunOptions {
  onProgress?: (p: EmbedProgress) => void;
  maxPassages?: number;
  /** Only the passages after this block (an ingest's new ones): counts and reads that range alone. */
  startAfterId?: number;
}

export async function embedStore(
  db: Database,
  provider: EmbeddingProvider,
  options: EmbedRunOptions = {},
): Promise<EmbedReport> {
  const started = performance.now();
  ensureEmbeddingTables(db);
  const from = options.startAfterId;
  const counts =
    from === undefined
      ? countPassages(db, provider.model)
      : { total: countPendingAfter(db, provider.model, from), embedded: 0 };
  let embedded = counts.embedded;
  let sent = 0;
  let reused = 0;
  let afterId = from ?? 0;
  let stopped: string | undefined;
  const budget = options.maxPassages ?? Number.POSITIVE_INFINITY;
  let dim = 0;
  try {
    if (counts.total > counts.embedded) options.onProgress?.({ done: embedded, total: counts.total });
    while (sent + reused < budget) {
      const batch = pendingPassages(db, provider.model, afterId, Math.min(provider.maxBatch, budget - sent - reused));
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1]!.id;
      const rows: Array<{ blockId: number; textHash: string; vector: Float32Array }> = [];
      const toSend = new Map<string, { text: string; ids: number[] }>();
      for (const p of batch) {
        const text = p.text.slice(0, MAX_PASSAGE_CHARS);
        const textHash = sha1(text);
        const stored = vectorForHash(db, provider.model, textHash);
        if (stored) {
          rows.push({ blockId: p.id, textHash, vector: fromBlob(stored) });
          reused++;
        } else {
          const entry = toSend.get(textHash) ?? { text, ids: [] };
          entry.ids.push(p.id);
          toSend.set(textHash, entry);
        }
      }
      const hashes = [...toSend.keys()];
      const vectors = hashes.length ? await provider.embed(hashes.map((h) => toSend.get(h)!.text)) : [];
      hashes.forEach((h, i) => {
        dim = vectors[i]!.length;
        const ids = toSend.get(h)!.ids;
        for (const id of ids) rows.push({ blockId: id, textHash: h, vector: vectors[i]! });
        reused += ids.length - 1;
      });
      sent += hashes.length;
      writeVectors(db, provider.model, rows);
      embedded += rows.length;
      if (dim === 0 && rows[0]) dim = rows[0].vector.length;
      if (dim > 0)
        recordEmbeddingModel(db, {
          model: provider.model,
          provider: provider.name,
          baseUrl: provider.baseUrl ?? null,
          dim,
          updatedAt: new Date().toISOString(),
        });
      options.onProgress?.({ done: embedded, total: counts.total });
    }
    // A first run over no passages still records the choice: the next ingest embeds what it adds.
    if (from === undefined && !embeddingModels(db).some((m) => m.model === provider.model))
      recordEmbeddingModel(db, {
        model: provider.model,
        provider: provider.name,
        baseUrl: provider.baseUrl ?? null,
        dim: 0,
        updatedAt: new Date().toISOString(),
      });
  } catch (error) {
    stopped = (error as Error).message.split('\n')[0];
  }
  return {
    provider: provider.name,
    model: provider.model,
    embedded,
    total: counts.total,
    sent,
    reused,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    ...(stopped ? { stopped } : {}),
  };
}
