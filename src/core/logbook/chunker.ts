// Owns splitting a conversation into chunks for the model: messages rendered as the spec's format_chunk
// renders them, cut at message boundaries so each chunk (header included) stays within the token budget
// counted with the one tokenizer; a single message larger than the budget is cut to fit.
import { sha256 } from '../../shared/hash.js';
import { countTokens, tailToTokens, truncateToTokens } from '../../shared/tokenizer.js';
import { formatLogbookChunk } from '../llm/prompts.js';
import type { LogbookChunkMessage, LogbookInput } from '../llm/task-schemas.js';
import type { Conversation, ConversationMessage } from './types.js';

export interface Chunk {
  conversationId: string;
  /** 0-based position in the conversation. */
  index: number;
  messages: ConversationMessage[];
  /** Content hash: what the chunk shows the model (ids, roles, times, texts). */
  hash: string;
  tokens: number;
}

export const DEFAULT_CHUNK_TOKENS = 3000;
/** The smallest budget accepted: a header plus a few lines of one message. */
const MIN_CHUNK_TOKENS = 200;

function toChunkMessage(m: ConversationMessage): LogbookChunkMessage {
  return {
    id: m.chunkId,
    role: m.role,
    text: m.text,
    ...(m.timestamp ? { timestamp: m.timestamp } : {}),
    ...(m.failed ? { failed: true } : {}),
  };
}

/** The task input of a chunk (the logbook so far is added by the caller). */
export function chunkInput(
  conversation: Conversation,
  messages: ConversationMessage[],
): Omit<LogbookInput, 'existingEvents'> {
  return {
    conversationId: conversation.id,
    ...(conversation.title ? { title: conversation.title } : {}),
    ...(conversation.startedAt ? { createdAt: conversation.startedAt } : {}),
    messages: messages.map(toChunkMessage),
  };
}

export function chunkConversation(conversation: Conversation, budget = DEFAULT_CHUNK_TOKENS): Chunk[] {
  // The chunk's time range line is counted at its longest: the first and last timestamps may be any two.
  const longest = conversation.messages.reduce(
    (a, m) => ((m.timestamp ?? '').length > a.length ? m.timestamp! : a),
    '',
  );
  const header =
    countTokens(formatLogbookChunk({ ...chunkInput(conversation, []), existingEvents: [] })) +
    (longest ? countTokens(`Time: ${longest} → ${longest}\n`) : 0);
  const room = Math.max(MIN_CHUNK_TOKENS, budget) - header;
  const chunks: Chunk[] = [];
  let current: ConversationMessage[] = [];
  let used = 0;
  const close = (): void => {
    if (current.length === 0) return;
    const hash = sha256(
      JSON.stringify([
        conversation.id,
        conversation.title,
        conversation.startedAt,
        current.map((m) => [m.chunkId, m.role, m.timestamp, m.failed, m.text]),
      ]),
    ).slice(0, 32);
    chunks.push({
      conversationId: conversation.id,
      index: chunks.length,
      messages: current,
      hash,
      tokens: header + used,
    });
    current = [];
    used = 0;
  };
  for (const original of conversation.messages) {
    let message = original;
    let tokens = countTokens(renderedMessage(message));
    if (tokens > room) {
      const overhead = tokens - countTokens(message.text);
      message = { ...message, text: cut(message, Math.max(16, room - overhead - 4)) };
      tokens = countTokens(renderedMessage(message));
    }
    if (used + tokens > room) close();
    current.push(message);
    used += tokens;
  }
  close();
  return chunks;
}

/**
 * A message cut to `budget` tokens. A user's words typed below a pasted document come last, so a user
 * message keeps its head and its tail (two thirds of the budget) with "…" between them.
 */
function cut(message: ConversationMessage, budget: number): string {
  if (message.role !== 'user') return truncateToTokens(message.text, budget) + '…';
  const head = Math.floor(budget / 3);
  return `${truncateToTokens(message.text, head)}\n…\n${tailToTokens(message.text, budget - head)}`;
}

function renderedMessage(m: ConversationMessage): string {
  return `${m.role} [${m.chunkId}]: ${m.text}\n\n`;
}
