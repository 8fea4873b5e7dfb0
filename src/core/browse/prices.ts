// Owns the list prices behind the Activity page's estimated cost: USD per million tokens for the model
// families whose public price list was checked (Anthropic's pricing page, 2026-11). A model not listed
// here has no price, and its tokens are counted as unpriced rather than guessed.

export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** First match wins: specific versions before their family. Cache writes at the 5-minute rate. */
const PRICES: [RegExp, Price][] = [
  [/claude-opus-4-(?:5|6|7|8)|claude-opus-5(?!-5)/, { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  [
    /claude-opus-4(?:-[01])?(?:-\d{8})?$|claude-opus-4-1|claude-3-opus/,
    { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 },
  ],
  [/claude-sonnet-5(?!-5)/, { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 }],
  [/claude-(?:sonnet-4|3-7-sonnet|3-5-sonnet)/, { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  [/claude-haiku-4-5/, { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  [/claude-3-5-haiku/, { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
];

export function priceOf(model: string | null | undefined): Price | undefined {
  if (!model) return undefined;
  const id = model.toLowerCase();
  return PRICES.find(([re]) => re.test(id))?.[1];
}

export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Estimated USD for these tokens of `model`, or undefined when the model has no known price. */
export function estimatedCost(model: string | null | undefined, t: TokenCounts): number | undefined {
  const p = priceOf(model);
  if (!p) return undefined;
  return (t.input * p.input + t.output * p.output + t.cacheRead * p.cacheRead + t.cacheWrite * p.cacheWrite) / 1e6;
}
