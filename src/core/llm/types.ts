// Owns the LLM provider contract: the request every sub-call sends, the reply every provider returns,
// and the small provider interface that extractive, anthropic, openai and the agent CLIs all implement.
import type { ZodTypeAny } from 'zod';

export const PROVIDER_NAMES = ['extractive', 'anthropic', 'openai', 'claude-cli', 'codex-cli', 'gemini-cli'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Known sub-call tasks. The extractive provider answers these from `input` instead of the prompt. */
export type LlmTaskId = 'segment-summary' | 'logbook-events';

/** A JSON shape the reply must satisfy: a zod schema, or a JSON Schema (draft 2020-12) object. */
export type JsonShape = ZodTypeAny | Record<string, unknown>;

export interface LlmRequest<T = unknown> {
  /** The task id; lets the extractive provider (and the fallback path) work from `input`. */
  task?: LlmTaskId;
  /** Structured input for the task (SegmentSummaryInput or LogbookInput, see prompts.ts). */
  input?: unknown;
  /** System text (instructions). */
  system?: string;
  /** The rendered prompt network providers send. */
  prompt: string;
  /** Output token cap. */
  maxTokens: number;
  /** When set, the reply must be JSON of this shape; `reply.json` then carries the parsed value. */
  json?: JsonShape;
  /** Version of the prompt template (part of the cache key). */
  templateVersion?: string;
  /** Caller's id for the item (segment id, conversation id), echoed in progress and failures. */
  id?: string;
  /** Phantom marker so typed builders can carry the JSON type. */
  readonly __json?: T;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmReply<T = unknown> {
  provider: ProviderName;
  model: string;
  text: string;
  /** Parsed and validated JSON when the request asked for a shape. */
  json?: T;
  usage: LlmUsage;
  /** Cost in USD: reported by the provider when it does (claude-cli), else estimated from the price table. */
  costUsd: number;
  /** False when the model is not in the price table (cost counted as 0). */
  priceKnown: boolean;
}

/** Per-call options the runner passes to providers. */
export interface LlmCallContext {
  /** Aborts the call (timeouts and budget stops). */
  signal?: AbortSignal;
  /** Per-call timeout in milliseconds. */
  timeoutMs: number;
}

export interface LlmProvider {
  readonly name: ProviderName;
  readonly model: string;
  /** False for providers whose answers are computed locally (no cache, no budget). */
  readonly networked: boolean;
  complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>>;
}

/** What a provider's transport returns before JSON parsing and pricing. */
export interface RawReply {
  text: string;
  usage: LlmUsage;
  /** Cost reported by the provider itself (claude-cli's total_cost_usd). */
  reportedCostUsd?: number;
  /** The model that actually answered, when the server says. */
  model?: string;
}
