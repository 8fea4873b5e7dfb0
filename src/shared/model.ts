// Owns the normalized model every adapter produces and the store keeps:
// source file → session → message → block. Types only.

export const AGENTS = [
  'claude-code',
  'codex',
  'gemini',
  'aider',
  'opencode',
  'puffin',
  'cline',
  'copilot-cli',
  'specstory',
  'vscode-copilot',
  'cursor',
  'crush',
  'zed',
  'warp',
  'qwen',
  'kimi',
  'openclaw',
  'pi',
  'continue',
  'amp',
  'goose',
  'droid',
] as const;
export type AgentName = (typeof AGENTS)[number];

export type BlockKind = 'text' | 'thinking' | 'tool_call' | 'tool_result' | 'image' | 'document' | 'system' | 'summary';

/** The searchable field a block's text belongs to (FTS scoping and `--in` selectors). */
export type BlockField = 'user' | 'assistant' | 'thinking' | 'tool_input' | 'tool_output' | 'system' | 'summary';

export interface Block {
  kind: BlockKind;
  /**
   * Searchable text. text/thinking/system/summary: the text; tool_call: a one-line rendering of the
   * input (JSON); tool_result: the output; image/document: '' (metadata only, never base64).
   */
  text: string;
  /** tool_call: the tool name; tool_result: the name of the call it answers when known. */
  toolName?: string;
  /** tool_call: the call id; tool_result: the id of the call it answers. */
  toolCallId?: string;
  /** tool_call: the structured input. */
  toolInput?: unknown;
  /**
   * tool_call: set when `text` is exactly `JSON.stringify(toolInput)` (the store then keeps it once without serializing
   * it again).
   */
  textIsInput?: true;
  /** tool_result: true when the tool reported an error. */
  isError?: boolean;
  /** Noise wrapper tag when the text is harness noise (`command-name`, `system-reminder`, ...). */
  noise?: string;
  /** Extra metadata (image media type and size, structured tool results, sidecar paths, ...). */
  meta?: Record<string, unknown>;
}

/**
 * What a message is, beyond its role. Only `prompt` counts as a human prompt.
 * - prompt: text a person typed; response: an assistant reply; tool_output: a user record carrying only tool results;
 * - compaction: a compaction summary; system: harness/system records; error: API errors; meta: injected context.
 */
export type MessageKind = 'prompt' | 'response' | 'tool_output' | 'compaction' | 'system' | 'error' | 'meta';
export type MessageRole = 'user' | 'assistant' | 'system' | 'tool';

export interface TokenUsage {
  /** The API message id the usage belongs to (usage is deduplicated by it per session). */
  apiMessageId: string;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface ParsedMessage {
  /** External id of the session this message belongs to. */
  sessionKey: string;
  /**
   * Stable key of the message within its session (record uuid, API message id, ...). A later message
   * with the same key in the same session is merged into it: its blocks are appended.
   */
  key: string;
  role: MessageRole;
  kind: MessageKind;
  /** ISO 8601 timestamp. */
  timestamp?: string;
  model?: string;
  /** 1-based line of the record in the source file (or entry index for non-line formats). */
  line: number;
  blocks: Block[];
  usage?: TokenUsage;
  isSidechain?: boolean;
  meta?: Record<string, unknown>;
  /**
   * Set on what looks like a copy of the parent session's items (the prefix a fork replays): the ingest
   * drops it only when the parent session is stored with the same texts, else keeps it as the session's own.
   */
  replayOf?: string;
}

export type SessionRelation =
  | 'subagent'
  | 'fork'
  | 'compaction'
  | 'side_question'
  | 'prompt_suggestion'
  | 'continuation';

export interface ParsedSession {
  /** External id (the agent's own session id). Unique per agent. */
  key: string;
  agent: AgentName;
  /** Working directory from the records (never from a folder slug). */
  project?: string;
  gitBranch?: string;
  title?: string;
  parentKey?: string;
  relation?: SessionRelation;
  meta?: Record<string, unknown>;
}

export interface ParseIssue {
  line: number;
  /** Byte offset of the problem when known (whole-file formats). */
  offset?: number;
  reason: string;
}

export interface ParseOutput {
  sessions: ParsedSession[];
  messages: ParsedMessage[];
  /** Malformed records: skipped, counted and reported with file and line. */
  malformed: ParseIssue[];
  /** Known-but-unused or unknown record types, counted by type. */
  skipped: Record<string, number>;
  /** Values dropped from kept records because they were not valid (a 1969 time, 1e308 tokens), by field. */
  invalid?: Record<string, number>;
  /** Set when the file is not a session file (with the reason); nothing else is stored for it. */
  notSession?: string;
  /** Adapter-defined incremental state to persist for the next parse of this source. */
  state?: unknown;
  /**
   * Whole-file adapters only: when true, sessions absent from this output are untouched (the adapter
   * re-parsed only changed sessions); when false, the output is the full current content of the file.
   */
  partial?: boolean;
}

export function emptyParseOutput(): ParseOutput {
  return { sessions: [], messages: [], malformed: [], skipped: {} };
}
