// Owns the small price table (USD per million tokens) used to estimate sub-call cost. Unknown models
// cost 0 and are flagged `priceKnown: false` so reports say "unknown price" instead of guessing.

interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** Matched by prefix, longest first, against the model id (dated suffixes like -20251001 still match). */
const PRICES: Record<string, ModelPrice> = {
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-3-7-sonnet': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-3-5-sonnet': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'claude-3-haiku': { inputPerMTok: 0.25, outputPerMTok: 1.25 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gemini-2.5-flash-lite': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  'gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10 },
  // Local and offline models cost nothing.
  extractive: { inputPerMTok: 0, outputPerMTok: 0 },
};

const KEYS_LONGEST_FIRST = Object.keys(PRICES).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

export function priceFor(model: string): ModelPrice | undefined {
  const id = model.toLowerCase().replace(/^(anthropic|openai)\//, '');
  const key = KEYS_LONGEST_FIRST.find((k) => id === k || id.startsWith(k + '-') || id.startsWith(k + '@'));
  return key ? PRICES[key] : undefined;
}

export interface CostEstimate {
  costUsd: number;
  priceKnown: boolean;
}

export function estimateCost(model: string, inputTokens: number, outputTokens: number): CostEstimate {
  const price = priceFor(model);
  if (!price) return { costUsd: 0, priceKnown: false };
  return {
    costUsd: (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1_000_000,
    priceKnown: true,
  };
}
