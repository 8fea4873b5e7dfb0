// Owns what every network provider does after its transport answers: reject empty replies, parse and
// validate JSON when the request asked for a shape, and price the call.
import { LlmProviderError } from '../errors.js';
import { parseJsonReply } from '../json-shape.js';
import { estimateCost } from '../pricing.js';
import type { LlmReply, LlmRequest, ProviderName, RawReply } from '../types.js';

export function finishReply<T>(
  provider: ProviderName,
  model: string,
  request: LlmRequest<T>,
  raw: RawReply,
): LlmReply<T> {
  const answeredBy = raw.model ?? model;
  const estimate = estimateCost(answeredBy, raw.usage.inputTokens, raw.usage.outputTokens);
  const reported = raw.reportedCostUsd;
  const reply: LlmReply<T> = {
    provider,
    model: answeredBy,
    text: raw.text,
    usage: raw.usage,
    costUsd: reported ?? estimate.costUsd,
    priceKnown: reported !== undefined || estimate.priceKnown,
  };
  const spent = { ...raw.usage, costUsd: reply.costUsd, priceKnown: reply.priceKnown };
  if (raw.text.trim() === '') {
    throw new LlmProviderError('empty_reply', `${provider}: the model returned an empty reply`, {
      replyText: raw.text,
      spent,
    });
  }
  if (request.json) {
    const parsed = parseJsonReply<T>(raw.text, request.json);
    if (!parsed.ok) {
      throw new LlmProviderError('invalid_json', `${provider}: reply is not the requested JSON (${parsed.error})`, {
        replyText: raw.text,
        spent,
      });
    }
    reply.json = parsed.value;
  }
  return reply;
}

/** Aborts when either the caller's signal fires or the timeout elapses. */
export function timeoutSignal(context: { signal?: AbortSignal; timeoutMs: number }): AbortSignal {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  return context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
}
