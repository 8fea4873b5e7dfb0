// Owns the `extractive` provider, strata's offline default: no model, no network, deterministic. It
// answers the known tasks from the request's structured `input` (not the rendered prompt) and returns
// the same JSON shapes a model would: byte-identical output for identical input.
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest } from '../types.js';
import { LlmProviderError } from '../errors.js';
import { validateShape } from '../json-shape.js';
import type { LogbookInput, SegmentSummaryInput } from '../task-schemas.js';
import { summarizeSegment } from '../extractive/summarize.js';
import { summarizeSegmentOffThread } from '../extractive/off-thread.js';
import { extractLogbookEvents } from '../extractive/logbook.js';

export const EXTRACTIVE_MODEL = 'extractive-v1';

/** Computes the task's JSON from its structured input; undefined for requests without a known task. */
export function answerExtractively(request: LlmRequest): unknown {
  switch (request.task) {
    case 'segment-summary': {
      const input = request.input as Partial<SegmentSummaryInput> | undefined;
      if (typeof input?.content !== 'string')
        throw new LlmProviderError('unsupported', 'extractive: segment-summary needs input.content');
      return summarizeSegment(input.content);
    }
    case 'logbook-events': {
      const input = request.input as Partial<LogbookInput> | undefined;
      if (!Array.isArray(input?.messages) || typeof input?.conversationId !== 'string') {
        throw new LlmProviderError(
          'unsupported',
          'extractive: logbook-events needs input.conversationId and input.messages',
        );
      }
      return extractLogbookEvents({ ...input, existingEvents: input.existingEvents ?? [] } as LogbookInput);
    }
    default:
      return undefined;
  }
}

export function createExtractiveProvider(): LlmProvider {
  return {
    name: 'extractive',
    model: EXTRACTIVE_MODEL,
    networked: false,
    async complete<T>(request: LlmRequest<T>, _context: LlmCallContext): Promise<LlmReply<T>> {
      // Segment summaries run off-thread: a history of 100,000 prompts makes thousands of them.
      const answer =
        request.task === 'segment-summary' && typeof (request.input as { content?: unknown })?.content === 'string'
          ? await summarizeSegmentOffThread((request.input as SegmentSummaryInput).content)
          : answerExtractively(request);
      const base = {
        provider: 'extractive' as const,
        model: EXTRACTIVE_MODEL,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        priceKnown: true,
      };
      if (answer === undefined) {
        if (request.json)
          throw new LlmProviderError(
            'unsupported',
            `extractive: no extractive answer for task ${request.task ?? '(none)'}; it answers segment-summary and ` +
              `logbook-events`,
          );
        // Free-form requests get an extractive summary of the prompt text itself.
        return { ...base, text: summarizeSegment(request.prompt).summary };
      }
      const reply: LlmReply<T> = { ...base, text: JSON.stringify(answer) };
      if (request.json) {
        const checked = validateShape<T>(answer, request.json);
        if (!checked.ok)
          throw new LlmProviderError(
            'invalid_json',
            `extractive: answer does not match the requested shape (${checked.error})`,
          );
        reply.json = checked.value;
      } else {
        reply.json = answer as T;
      }
      return reply;
    },
  };
}
