// The offline extractor's events for a list of messages, numbered from 1, a minute apart: what the
// extractive logbook rule tests feed it.
import { extractLogbookEvents, type LogbookChunkMessage } from '../../src/core/llm/index.js';

export type Message = Omit<LogbookChunkMessage, 'id' | 'timestamp'>;

export const events = (messages: Message[]) =>
  extractLogbookEvents({
    conversationId: 'c1',
    messages: messages.map((m, i) => ({ ...m, id: String(i + 1), timestamp: `2026-03-01T10:${10 + i}:00.000Z` })),
    existingEvents: [],
  }).events;

export const agent = (text: string): Message => ({ role: 'assistant', text });
export const user = (text: string): Message => ({ role: 'user', text });

/** Each event as [type, content, resolution, cited message id]. */
export const brief = (messages: Message[]) =>
  events(messages).map((e) => [e.type, e.content, e.resolution, e.source?.message_id]);

/** An edit of `path` (its call and result) and the agent's summary after it. */
export const edit = (path: string, summary: string): Message[] => [
  agent(`→ Edit: ${path}`),
  { role: 'tool', text: '← Edit: ok' },
  agent(summary),
];
