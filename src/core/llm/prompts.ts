// Owns the prompt templates of strata's LLM sub-calls, each with a version that is part of the
// response-cache key: the history-index segment summary, the logbook events pass, and the JSON repair.
import type { LlmRequest } from './types.js';
import {
  logbookReplySchema,
  segmentSummarySchema,
  type LogbookEvent,
  type LogbookInput,
  type LogbookReply,
  type SegmentSummary,
  type SegmentSummaryInput,
} from './task-schemas.js';

/** Bump a version whenever its template text changes: cached replies of the old version are then ignored. */
export const SUMMARY_TEMPLATE_VERSION = 'segment-summary@1';
export const LOGBOOK_TEMPLATE_VERSION = 'logbook-events@2';
export const REPAIR_TEMPLATE_VERSION = 'json-repair@1';

export const SUBCALL_SYSTEM =
  'You are a precise assistant used as a sub-call by a developer tool. You never use tools. ' +
  'When asked for JSON you answer with one JSON object and nothing else.';

export const SUMMARY_PROMPT_TEMPLATE = `Given the following conversation segment from a software development project:

<segment>
{content}
</segment>

Provide a JSON response with:
1. "summary": A 2-3 sentence summary of the main topics and outcomes
2. "topics": Array of 3-7 topic tags (e.g., "authentication", "refactoring", "bug-fix")
3. "keyEntities": Array of specific files, functions, or concepts mentioned
4. "importanceScore": A score from 0.0 to 1.0 based on:
   - 1.0: Critical architectural decisions, security issues, breaking changes
   - 0.7-0.9: Important features, significant bugs, design patterns
   - 0.4-0.6: Standard development work, minor fixes
   - 0.1-0.3: Routine queries, documentation, formatting

Respond ONLY with valid JSON.`;

export const LOGBOOK_PROMPT_TEMPLATE = `You are building a project logbook by reviewing conversation history.

CURRENT LOGBOOK:
{logbook_text}

CURRENT CONVERSATION CHUNK:
{chunk_text}

TASK:
Append any meaningful events from this chunk to the logbook.

Rules:
1. Only add events NOT already captured in the current logbook
2. Event types: "decision" (choices made), "fact" (important information), "bug" (issues found)
3. Keep content concise (1 sentence, under 100 chars preferred)
4. Include rationale for decisions
5. List alternatives discussed for decisions
6. Include brief code ONLY if critical to understanding (1 line max)
7. Match format of existing logbook entries
8. Cite each event's message by the number in brackets before it ([13] → "message_id": 13)
9. Skip trivial details, chitchat, or non-technical items

OUTPUT:
Return ONLY JSON in this exact format:
{
  "events": [
    {
      "timestamp": "2026-01-15T10:30:00Z",
      "type": "decision|fact|bug",
      "content": "Brief one-sentence description",
      "rationale": "Why (for decisions)",
      "alternatives": ["option1", "option2"],
      "code": "brief_code_snippet",
      "source": {"message_id": 13}
    }
  ]
}

If this chunk adds nothing meaningful, return: {"events": []}`;

export const REPAIR_PROMPT_TEMPLATE = `Your previous answer could not be used: {error}.

Previous answer:
<answer>
{answer}
</answer>

Rewrite it as valid JSON that follows the format requested below. Respond ONLY with the JSON.

Original request:
{prompt}`;

/** Replaces `{name}` placeholders in one pass (values are never re-scanned). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (match, key: string) => (key in values ? (values[key] as string) : match));
}

export function renderSummaryPrompt(content: string): string {
  return fillTemplate(SUMMARY_PROMPT_TEMPLATE, { content });
}

export function buildSegmentSummaryRequest(
  input: SegmentSummaryInput,
  options: { maxTokens?: number } = {},
): LlmRequest<SegmentSummary> {
  return {
    task: 'segment-summary',
    input,
    id: input.segmentId,
    system: SUBCALL_SYSTEM,
    prompt: renderSummaryPrompt(input.content),
    maxTokens: options.maxTokens ?? 1000,
    json: segmentSummarySchema,
    templateVersion: SUMMARY_TEMPLATE_VERSION,
  };
}

/** The chunk as the spec's format_chunk renders it. */
export function formatLogbookChunk(input: LogbookInput): string {
  let text = `Conversation: ${input.conversationId}\n`;
  if (input.title) text += `Title: ${input.title}\n`;
  if (input.createdAt) text += `Created: ${input.createdAt}\n`;
  const times = input.messages.map((m) => m.timestamp).filter((t): t is string => Boolean(t));
  // One time range for the chunk: a time line per message cost a third of its tokens.
  if (times.length > 0) text += `Time: ${times[0]} → ${times[times.length - 1]}\n`;
  text += '\n---\n';
  for (const message of input.messages) text += `${message.role} [${message.id}]: ${message.text}\n\n`;
  return text;
}

/** The logbook so far as the spec's format_logbook_text renders it (oldest first). */
export function formatLogbookText(
  events: readonly LogbookEvent[],
  workspace = 'project',
  generatedAt?: string,
): string {
  let text = `=== Logbook: ${workspace} ===\n`;
  if (generatedAt) text += `Generated: ${generatedAt.replace('T', ' ').split('.')[0]}\n`;
  text += '\n';
  const sorted = [...events].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  for (const event of sorted) {
    text += `${event.timestamp.split('T')[0] ?? '???'} | ${event.type.toUpperCase()} | ${event.content}\n`;
    if (event.rationale) text += `  → Rationale: ${event.rationale}\n`;
    if (event.code) text += `  → Code: ${event.code}\n`;
    text += '\n';
  }
  return text;
}

export function renderLogbookPrompt(input: LogbookInput): string {
  return fillTemplate(LOGBOOK_PROMPT_TEMPLATE, {
    logbook_text: formatLogbookText(input.existingEvents, input.workspace, input.generatedAt),
    chunk_text: formatLogbookChunk(input),
  });
}

export function buildLogbookRequest(
  input: LogbookInput,
  options: { maxTokens?: number } = {},
): LlmRequest<LogbookReply> {
  return {
    task: 'logbook-events',
    input,
    id: input.conversationId,
    system: SUBCALL_SYSTEM,
    prompt: renderLogbookPrompt(input),
    maxTokens: options.maxTokens ?? 2000,
    json: logbookReplySchema,
    templateVersion: LOGBOOK_TEMPLATE_VERSION,
  };
}

/** The one repair attempt after an invalid JSON reply. */
export function buildRepairRequest<T>(original: LlmRequest<T>, answer: string, error: string): LlmRequest<T> {
  return {
    ...original,
    prompt: fillTemplate(REPAIR_PROMPT_TEMPLATE, { error, answer: answer.slice(0, 8000), prompt: original.prompt }),
    templateVersion: `${original.templateVersion ?? 'adhoc'}+${REPAIR_TEMPLATE_VERSION}`,
  };
}
