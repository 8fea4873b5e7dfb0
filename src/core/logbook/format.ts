// Owns the logbook's renderings: text (the spec's format_logbook_text, oldest first, with a citation
// under each event), markdown (a heading per month, newest first, one line per event with its type
// badge, date and `strata read` citation) and JSON (the document itself).
import { shellArg } from '../../shared/shell-arg.js';
import type { LogbookDocument, TimelineEvent } from './types.js';

export type LogbookFormat = 'text' | 'json' | 'markdown';
export const LOGBOOK_FORMATS: readonly LogbookFormat[] = ['text', 'json', 'markdown'];

function citation(event: TimelineEvent): string {
  return `strata read ${shellArg(event.source.session)} ${event.source.message}`;
}

/** The rationale a one-line rendering adds: none when the content already says it ("… because X"). */
function addedRationale(event: TimelineEvent): string | undefined {
  const squeeze = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').trim();
  const why = event.rationale;
  return why && !squeeze(event.content).includes(squeeze(why)) ? why : undefined;
}

function oldestFirst(events: readonly TimelineEvent[]): TimelineEvent[] {
  return [...events].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}

function newestFirst(events: readonly TimelineEvent[]): TimelineEvent[] {
  return oldestFirst(events).reverse();
}

/** The spec's `Generated:` rendering of an ISO time. */
function generatedLine(iso: string): string {
  return `Generated: ${iso.replace('T', ' ').split('.')[0]}`;
}

function formatText(doc: LogbookDocument): string {
  let text = `=== Logbook: ${doc.workspace} ===\n${generatedLine(doc.generated_at)}\n\n`;
  for (const event of oldestFirst(doc.timeline)) {
    text += `${event.timestamp.split('T')[0]} | ${event.type.toUpperCase()} | ${event.content}\n`;
    if (event.rationale) text += `  → Rationale: ${event.rationale}\n`;
    if (event.alternatives?.length) text += `  → Alternatives: ${event.alternatives.join('; ')}\n`;
    if (event.code) text += `  → Code: ${event.code}\n`;
    if (event.resolution) text += `  → Resolution: ${event.resolution}\n`;
    text += `  → Source: ${citation(event)}\n\n`;
  }
  if (doc.timeline.length === 0) text += '(no events yet)\n';
  return text;
}

const BADGE: Record<string, string> = { decision: '`DECISION`', fact: '`FACT`', bug: '`BUG`' };

function markdownLine(event: TimelineEvent): string {
  const badge = BADGE[event.type] ?? event.type;
  let line = `- ${badge} ${event.timestamp.slice(0, 10)} ${event.content.replace(/\n/g, ' ')}`;
  const why = addedRationale(event);
  if (why) line += ` — because ${why}`;
  if (event.resolution) line += ` — fixed: ${event.resolution}`;
  if (event.alternatives?.length) line += ` (instead of: ${event.alternatives.join(', ')})`;
  if (event.code) line += ` \`${event.code.replace(/`/g, "'")}\``;
  return `${line} — \`${citation(event)}\``;
}

function formatMarkdown(doc: LogbookDocument): string {
  let text =
    `# Logbook: ${doc.workspace}\n\n_${generatedLine(doc.generated_at)} UTC · ${doc.timeline.length} events ` +
    `· sessions from ${doc.source_range.from.slice(0, 10)} to ${doc.source_range.to.slice(0, 10)}_\n`;
  let month = '';
  for (const event of newestFirst(doc.timeline)) {
    const m = event.timestamp.slice(0, 7);
    if (m !== month) {
      text += `\n## ${m}\n\n`;
      month = m;
    }
    text += markdownLine(event) + '\n';
  }
  if (doc.timeline.length === 0) text += '\nNo events yet.\n';
  return text;
}

/** The document as written to a file and to the store: stable key order, one event per line group. */
export function formatJson(doc: LogbookDocument): string {
  return JSON.stringify(doc, null, 1) + '\n';
}

export function formatLogbook(doc: LogbookDocument, format: LogbookFormat): string {
  return format === 'json' ? formatJson(doc) : format === 'markdown' ? formatMarkdown(doc) : formatText(doc);
}

/** One line of `strata logbook show`. */
export function showLine(event: TimelineEvent): string {
  let line = `${event.timestamp.slice(0, 10)} ${event.type.toUpperCase()}: ${event.content}`;
  const why = addedRationale(event);
  if (why) line += ` (why: ${why})`;
  if (event.resolution) line += ` (fix: ${event.resolution})`;
  return `${line} [${citation(event)}]`;
}
