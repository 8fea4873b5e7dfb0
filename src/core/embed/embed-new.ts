// Owns keeping vectors up to date after an ingest: once a store holds vectors (its owner ran `strata embed`),
// the passages past the newest embedded block are embedded by the recorded provider and model, talking only
// to the recorded endpoint. Batches commit one at a time, so a stopped run resumes where it left off.
import type { Database } from 'better-sqlite3';
import { lastEmbeddedBlockId } from '../../store/embeddings.js';
import { providerForStore } from './create-provider.js';
import { embedStore, type EmbedProgress } from './embed-run.js';

export interface NewPassagesReport {
  provider: string;
  model: string;
  /** The endpoint talked to (the one recorded by `strata embed`); absent for the offline model. */
  url?: string;
  /** Passages this run gave a vector. */
  embedded: number;
  /** Passages still without one (0 unless the run stopped). */
  left: number;
  seconds: number;
  /** Why the run stopped early: one line, e.g. `openai-compatible: connection failed`. */
  stopped?: string;
}

/** An ingest must not wait long on a server that is down: fewer retries and a shorter timeout than `embed`. */
const AFTER_INGEST = { retries: 2, timeoutMs: 20_000 } as const;

/** undefined when the store holds no vectors (nobody opted in) or no provider can be made for them. */
export async function embedNewPassages(
  db: Database,
  env: Record<string, string | undefined>,
  options: { onProgress?: (p: EmbedProgress) => void } = {},
): Promise<NewPassagesReport | undefined> {
  const provider = providerForStore(db, env, AFTER_INGEST);
  if (!provider) return undefined;
  const report = await embedStore(db, provider, {
    startAfterId: lastEmbeddedBlockId(db, provider.model),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return {
    provider: report.provider,
    model: report.model,
    ...(provider.baseUrl ? { url: provider.baseUrl } : {}),
    embedded: report.embedded,
    left: report.total - report.embedded,
    seconds: report.seconds,
    ...(report.stopped ? { stopped: report.stopped } : {}),
  };
}
