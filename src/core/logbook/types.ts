// Owns the logbook's data model: the file/stored document (the spec's LogbookTimeline plus the state an
// incremental run needs), its events with their citation, and the run options and result.

export const LOGBOOK_VERSION = '1.0.0';
export const EVENT_TYPES = ['decision', 'fact', 'bug'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const CONTENT_MAX = 300;
export const RATIONALE_MAX = 500;

/** Where an event comes from: `strata read <session> <message>` opens it. */
interface EventSource {
  /** The conversation (top-level session) the chunk belonged to (spec field). */
  conversation_id: string;
  /** The message's id in the chunk as the model saw it (spec field). */
  message_id: string;
  /** External id of the session holding the message (a subagent's own id when it came from one). */
  session: string;
  /** 1-based message number as `strata read` numbers it. */
  message: number;
  agent: string;
  /** Role of the cited message (user, assistant, tool); absent in logbooks built before it was kept. */
  role?: string;
}

export interface TimelineEvent {
  timestamp: string;
  type: EventType;
  content: string;
  rationale?: string;
  alternatives?: string[];
  code?: string;
  resolution?: string;
  source: EventSource;
}

/** What was processed of one conversation: a cheap fingerprint and the hashes of its processed chunks. */
export interface ProcessedSession {
  fingerprint: string;
  chunks: string[];
  started_at: string;
}

export interface LogbookDocument {
  version: string;
  workspace: string;
  generated_at: string;
  source_range: { from: string; to: string };
  generator: { provider: string; model: string; template: string; fingerprint: string };
  /** Newest first. */
  timeline: TimelineEvent[];
  /** Per conversation id: what was processed (an incremental run skips what matches). */
  sessions: Record<string, ProcessedSession>;
  /** Conversations whose last run failed; retried by the next run. */
  failed: string[];
}

/** One message of a conversation as the chunker renders it. */
export interface ConversationMessage {
  /** Id shown to the model: `N` (the conversation's own message N) or `aK.N` (subagent K's message N). */
  chunkId: string;
  session: string;
  agent: string;
  number: number;
  role: string;
  timestamp: string | null;
  text: string;
  /** A tool result that reported failure. */
  failed: boolean;
}

export interface Conversation {
  id: string;
  agent: string;
  title: string | null;
  startedAt: string | null;
  fingerprint: string;
  messages: ConversationMessage[];
}

export interface LogbookLogger {
  warn(line: string): void;
  info(line: string): void;
}

export const silentLogbookLogger: LogbookLogger = { warn() {}, info() {} };
