// Owns extractive logbook events: decision / bug / fact sentences found by cue phrases (and @/ markers)
// in a conversation chunk, with rationale ("because …") and alternatives ("instead of …", "rather
// than …") when the text states them, skipping events the logbook already holds.
import type { LogbookEvent, LogbookEventType, LogbookInput } from '../task-schemas.js';
import { clip, splitSentences, termsOf } from './text.js';

const MAX_EVENTS_PER_CHUNK = 6;
const CONTENT_MAX = 110;

const DECISION_CUE = /\b(?:decided|decide to|we(?:'ll| will)? go with|going with|let's (?:use|go with|switch|keep|stick|do)|chose|choose to|opted|settled on|switch(?:ed)? to|instead of|rather than|(?:we|i)(?:'ll| will| should) use|prefer(?:red)?\b.*\bover)\b/i;
const BUG_CUE = /\b(?:bug(?!\s+reports?\b)|broken|crash(?:es|ed)?|exception|error:|fails?|failed|failing|regression|doesn't work|does not work|not working|root cause|the (?:problem|issue) (?:is|was)|fixed (?:a|the|it|by))\b/i;
const FACT_CUE = /\b(?:turns out|note that|important(?:ly)?:|requires|depends on|is (?:stored|located|defined|configured) in|(?:doesn't|does not|only) supports?|only works|is deprecated|defaults? to|is limited to)\b/i;
const RATIONALE_RE = /\b(?:because|since|so that|given that|due to)\s+(.+?)(?:[.;!?](?:\s|$)|$)/i;
const RATIONALE_FOLLOWUP = /^(?:this is because|that's because|because|the reason (?:is|was)(?: that)?)\s+(.+?)[.!]?$/i;
const ALTERNATIVE_RE = /\b(?:instead of|rather than|in place of|versus|vs\.?)\s+([^,.;:!?()]+)/gi;
const BETWEEN_RE = /\bbetween\s+([^,.;:!?()]+?)\s+and\s+([^,.;:!?()]+)/i;
const FILLER = /^(?:let me|now let me|i'll (?:check|look|read|run|start)|great|perfect|ok|okay|sure|thanks|thank you)\b/i;
const MARKER_RE = /@\/(decision|breaking|bug|api|pattern|perf|security|ref):\s*(.+)/i;
const CODE_RE = /\x60([^\x60\n]{3,80})\x60/;

interface Candidate {
  event: LogbookEvent;
  priority: number;
  order: number;
  terms: Set<string>;
}

export function extractLogbookEvents(input: LogbookInput): { events: LogbookEvent[] } {
  const known = input.existingEvents.map((e) => new Set(termsOf(e.content)));
  const candidates: Candidate[] = [];
  input.messages.forEach((message, mi) => {
    if (message.role === 'tool') return;
    const sentences = splitSentences(message.text);
    sentences.forEach((sentence, si) => {
      const found = classify(sentence, sentences[si + 1]);
      if (!found) return;
      const event: LogbookEvent = {
        timestamp: message.timestamp ?? input.createdAt ?? '',
        type: found.type,
        content: clip(found.content, CONTENT_MAX),
      };
      if (found.rationale) event.rationale = clip(found.rationale, 160);
      if (found.alternatives.length > 0) event.alternatives = found.alternatives;
      if (found.code) event.code = found.code;
      event.source = { conversation_id: input.conversationId, message_id: message.id };
      candidates.push({ event, priority: found.priority, order: mi * 10_000 + si, terms: new Set(termsOf(found.content)) });
    });
  });
  const chosen: Candidate[] = [];
  for (const c of [...candidates].sort((a, b) => b.priority - a.priority || a.order - b.order)) {
    if (chosen.length >= MAX_EVENTS_PER_CHUNK) break;
    if (known.some((k) => similar(k, c.terms)) || chosen.some((o) => similar(o.terms, c.terms))) continue;
    chosen.push(c);
  }
  return { events: chosen.sort((a, b) => a.order - b.order).map((c) => c.event) };
}

interface Classified {
  type: LogbookEventType;
  content: string;
  priority: number;
  rationale?: string;
  alternatives: string[];
  code?: string;
}

function classify(sentence: string, next: string | undefined): Classified | undefined {
  const marker = MARKER_RE.exec(sentence);
  if (marker) {
    const kind = marker[1]!.toLowerCase();
    const type: LogbookEventType = kind === 'decision' || kind === 'breaking' ? 'decision' : kind === 'bug' ? 'bug' : 'fact';
    return withDetails(type, marker[2]!.trim(), 10, next);
  }
  const words = sentence.split(/\s+/).length;
  if (words < 5 || sentence.length > 400 || sentence.trim().endsWith('?') || FILLER.test(sentence)) return undefined;
  if (DECISION_CUE.test(sentence)) return withDetails('decision', sentence, 4, next);
  if (BUG_CUE.test(sentence)) return withDetails('bug', sentence, 3, next);
  if (FACT_CUE.test(sentence)) return withDetails('fact', sentence, 2, next);
  return undefined;
}

function withDetails(type: LogbookEventType, sentence: string, priority: number, next: string | undefined): Classified {
  const result: Classified = { type, content: sentence.replace(/\s+/g, ' ').trim(), priority, alternatives: [] };
  const rationale = RATIONALE_RE.exec(sentence)?.[1] ?? (next ? RATIONALE_FOLLOWUP.exec(next.trim())?.[1] : undefined);
  if (rationale && rationale.split(/\s+/).length >= 2) {
    result.rationale = rationale.trim();
    result.priority += 1;
  }
  if (type === 'decision') {
    for (const m of sentence.matchAll(ALTERNATIVE_RE)) addAlternative(result.alternatives, m[1]!);
    const between = BETWEEN_RE.exec(sentence);
    if (between) {
      addAlternative(result.alternatives, between[1]!);
      addAlternative(result.alternatives, between[2]!);
    }
    if (result.alternatives.length > 0) result.priority += 1;
  }
  const code = CODE_RE.exec(sentence)?.[1];
  if (code && type !== 'fact' && /[(=.\s/-]/.test(code)) result.code = code;
  return result;
}

function addAlternative(list: string[], raw: string): void {
  const value = clip(raw.replace(/\*\*|\x60/g, '').replace(/\s+(?:because|since|so|and then|which|that)\b.*$/i, '').trim(), 60);
  if (value.split(/\s+/).length <= 8 && value.length >= 2 && !list.includes(value)) list.push(value);
}

function similar(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared) >= 0.6;
}
