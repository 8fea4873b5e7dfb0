// Owns the JSON shapes the two sub-call tasks answer with: the history-index segment summary and the
// logbook events reply. Zod schemas (validation) plus their TypeScript types.
import { z } from 'zod';

export const segmentSummarySchema = z.object({
  summary: z.string().max(1000),
  topics: z.array(z.string()),
  keyEntities: z.array(z.string()),
  importanceScore: z.number().min(0).max(1),
});
export type SegmentSummary = z.infer<typeof segmentSummarySchema>;

export const LOGBOOK_EVENT_TYPES = ['decision', 'fact', 'bug'] as const;
export type LogbookEventType = (typeof LOGBOOK_EVENT_TYPES)[number];

export const logbookEventSchema = z.object({
  timestamp: z.string(),
  type: z.enum(LOGBOOK_EVENT_TYPES),
  content: z.string().min(1),
  rationale: z.string().nullish(),
  alternatives: z.array(z.string()).nullish(),
  code: z.string().nullish(),
  resolution: z.string().nullish(),
  source: z.object({ conversation_id: z.string().nullish(), message_id: z.string().nullish() }).nullish(),
});
export type LogbookEvent = z.infer<typeof logbookEventSchema>;

export const logbookReplySchema = z.object({ events: z.array(logbookEventSchema) });
export type LogbookReply = z.infer<typeof logbookReplySchema>;

/** Input of the `segment-summary` task (what the history index hands over). */
export interface SegmentSummaryInput {
  segmentId: string;
  /** The segment's text as rendered for the model ("user: …" / "assistant: …" lines are fine). */
  content: string;
}

export interface LogbookChunkMessage {
  /** Message id (becomes source.message_id). */
  id: string;
  role: string;
  /** ISO 8601 timestamp (becomes the event timestamp). */
  timestamp?: string;
  text: string;
  /** A tool result in this message reported failure (the extractive provider looks for the fix after it). */
  failed?: boolean;
}

/** Input of the `logbook-events` task: the current chunk plus the logbook so far. */
export interface LogbookInput {
  workspace?: string;
  /** The logbook's `Generated:` time shown with it (omitted when unset). */
  generatedAt?: string;
  conversationId: string;
  title?: string;
  createdAt?: string;
  messages: LogbookChunkMessage[];
  /** Events already in the logbook (the model and the extractive provider skip duplicates of these). */
  existingEvents: LogbookEvent[];
}
