// Owns extractive logbook events: decisions from cue phrases ("we decided", "let's go with", "instead
// of") with their rationale and alternatives, bugs from a failing tool result followed by a fix (or a
// stated root cause), facts from @/ markers and stated constraints; skipping tool lines, boilerplate
// (instructions and templates pasted into prompts), filler, questions, bare ids/paths, and events the
// logbook already holds.
import type { LogbookChunkMessage, LogbookEvent, LogbookEventType, LogbookInput } from '../task-schemas.js';
import {
  ACCEPT,
  AGENT_PLAN,
  BUG_CUE,
  CONCRETE,
  DESCRIPTIVE_FACT,
  ERROR_LINE,
  FIXED_LEAD,
  FIX_DONE,
  HARNESS_FAILURE,
  INTL_RATIONALE,
  DECISION_CUE,
  KO_BECAUSE_PROBLEM,
  KO_PROBLEM_WORD,
  NO_PROBLEM,
  DONE_CHANGE,
  FACT_CUE,
  FIX_CUE,
  LABELLED_ITEM,
  NARRATION,
  NOTED,
  NO_SUBJECT,
  NOT_DONE,
  OFFER,
  PLAN,
  RULE,
  POINTER_SUBJECT,
  PROBLEM_WORDS,
  TENTATIVE,
  WEAK_DECISION_CUE,
} from './logbook-cues.js';
import { clipAtWord, isNonLatin, proseSentences, stripLinks, tidy, wordsOf } from './segments.js';
import { clip } from './text.js';
import { bugText, type Candidate, mergeBugs, SAME_BUG, similar, termSet } from './logbook-merge.js';
import { agentSaysAfter, CALL_LINE, editsCode, withoutToolLines } from './logbook-evidence.js';
import { CHANGE_STATED, editedInTurn, editsAfter, fixedAfter, fixOf, fixShown, fixText } from './logbook-fixes.js';
import { reportedError, userReportedBug } from './logbook-reports.js';
import { listGateOf } from './logbook-paragraphs.js';
import { approvedPlan, userChoice } from './logbook-user-decisions.js';
import { offeredOptions, pickedOption, withHeadingSubjects } from './logbook-options.js';
import { episodeEvents } from './logbook-episodes.js';
import { agentDecision } from './logbook-agent-decisions.js';
import { isBoilerplate, typedAfterPaste } from './logbook-own-words.js';

/** At most this many events per ~3,000 tokens (12,000 characters) of conversation, the best first. */
const MAX_EVENTS_PER_SPAN = 6;
const SPAN_CHARS = 12_000;
/** A conversation's best events only: a long one is mostly tweaks of a few subjects. */
const MAX_EVENTS = 12;
const CONTENT_MAX = 160;

const RATIONALE_RE = /\b(?:because|since|so that|given that|due to)\s+(.+?)(?:[.;!?](?:\s|$)|$)/i;
const RATIONALE_FOLLOWUP = /^(?:this is because|that's because|because|the reason (?:is|was)(?: that)?)\s+(.+?)[.!]?$/i;
const ALTERNATIVE_RE = /\b(?:instead of|rather than|in place of)\s+([^,.;:!?()]+)/gi;
const BETWEEN_RE = /\bbetween\s+([^,.;:!?()]+?)\s+and\s+([^,.;:!?()]+)/i;
const INSTRUCTION = new RegExp(
  String.raw`^(?:you (?:are|must|should|will|need)|your (?:task|job|goal)|please\b|do not\b|don't\b|` +
    String.raw`always\b|never\b|make sure\b|ensure\b|remember\b)`,
  'i',
);
const MARKER_RE = /@\/(decision|breaking|bug|api|pattern|perf|security|ref):\s*(.+)/i;
const CODE_RE = /\x60([^\x60\n]{3,80})\x60/;
const READ_TOOL = /^(?:read\w*|view|cat|ls|list\w*|glob\w*|grep\w*|search\w*|find\w*|web\w*|fetch\w*)$/i;
const FAILED_LINE = /^← (\S+) FAILED: (.*)$/;

export function extractLogbookEvents(input: LogbookInput): { events: LogbookEvent[] } {
  // A fix already recorded as a bug's resolution is known as well as the bug itself.
  const known = input.existingEvents.flatMap((e) => [e.content, e.resolution ?? ''].filter(Boolean).map(termSet));
  const knownBugs = input.existingEvents.filter((e) => e.type === 'bug').map((e) => termSet(bugText(e.content)));
  const candidates: Candidate[] = [];
  const bare = new Set<LogbookEvent>();
  const add = (
    message: LogbookChunkMessage,
    mi: number,
    si: number,
    found: Classified,
    compareBy = found.content,
  ): void => {
    if (message.role === 'user' && cited.has(mi)) return;
    const event: LogbookEvent = {
      timestamp: message.timestamp ?? input.createdAt ?? '',
      type: found.type,
      content: clipAtWord(found.content, CONTENT_MAX),
    };
    if (found.rationale) event.rationale = clipAtWord(found.rationale, 200);
    if (found.alternatives.length > 0) event.alternatives = found.alternatives;
    if (found.code) event.code = found.code;
    if (found.resolution) event.resolution = clipAtWord(found.resolution, 200);
    event.source = { conversation_id: input.conversationId, message_id: message.id };
    candidates.push({ event, priority: found.priority, order: mi * 10_000 + si, terms: termSet(compareBy) });
    if (found.bare) bare.add(event);
  };
  const { events: episodes, read, edited, bugSpans } = episodeEvents(input.messages, isBoilerplate);
  const inBugThread = (mi: number) => bugSpans.some(([from, to]) => mi > from && mi <= to);
  // A request the agent carried out that gave no episode event is mostly a tweak: only a stated decision stands.
  const carriedOut = new Set(edited);
  // A user turn the episode reader read gives no second, weaker event from its sentences.
  const cited = new Set(read);
  for (const e of episodes) {
    const message = input.messages[e.at]!;
    const event: LogbookEvent = {
      timestamp: message.timestamp ?? input.createdAt ?? '',
      type: e.type,
      content: e.content,
      ...(e.resolution ? { resolution: clipAtWord(e.resolution, 280) } : {}),
      source: { conversation_id: input.conversationId, message_id: message.id },
    };
    candidates.push({ event, priority: e.priority, order: e.at * 10_000, terms: termSet(e.content), thread: true });
  }
  input.messages.forEach((message, mi) => {
    if (isFailure(message)) {
      const bug = bugFromFailure(input.messages, mi);
      // Two failures with the same error are one bug, whatever the commands that hit it.
      if (bug) add(message, mi, 0, bug, bugText(bug.content));
    }
    if (message.role === 'tool') return;
    if (message.role === 'user' && !isBoilerplate(message)) {
      const bug = userReportedBug(input.messages, mi);
      if (bug) add(message, mi, 0, { type: 'bug', priority: 5, alternatives: [], ...bug }, bug.content);
    }
    const text = isBoilerplate(message) && !approvedPlan(message.text) ? typedAfterPaste(message) : message.text;
    if (!text) return;
    const sentences = proseSentences(withHeadingSubjects(withoutToolLines(text)));
    // A message that ends by handing the choice back ("Want me to …?") only offers what it lists.
    const last = sentences[sentences.length - 1] ?? '';
    const offers = message.role !== 'user' && /[?？]$/.test(last) && OFFER.test(last);
    // An offer the user then accepts ("yes all of it") holds the user's decisions.
    const accepted = offers && ACCEPT.test(nextUserText(input.messages, mi));
    // Options listed for the user to choose from are no decisions; the one the user's reply picks is.
    const options = offeredOptions(message);
    const reply = nextUserText(input.messages, mi);
    const picked = options && pickedOption(options, reply);
    if (picked) {
      const at = input.messages.findIndex((m, i) => i > mi && m.role === 'user');
      // The user's words first (the event quotes the message it cites), then the option they name.
      const content = reply.length <= 80 ? `${reply.replace(/[.!。]$/, '')} — ${picked.text}` : picked.text;
      add(input.messages[at]!, at, 0, { type: 'decision', content, priority: 6, alternatives: [] });
    }
    const listGate = listGateOf(withoutToolLines(text), message.role);
    sentences.forEach((sentence, si) => {
      if (accepted) {
        const taken = classify(sentence, sentences[si + 1], true);
        if (taken?.type === 'decision') add(message, mi, si + 1, taken);
        return;
      }
      const found = classify(sentence, sentences[si + 1], message.role === 'user');
      if (!found || ((offers || options) && found.type === 'decision')) return;
      const stated =
        (found.type === 'decision' && (DECISION_CUE.test(sentence) || CONCRETE.test(sentence))) ||
        (found.type === 'fact' && RULE.test(sentence));
      if (message.role === 'user' && carriedOut.has(mi) && found.priority < 10 && !stated) return;
      // The agent's own decisions read alone are mostly context (the old state, an observation, a proposal):
      // decisions come from the user's turns (episodes), markers, and choices stated with a reason.
      if (
        message.role !== 'user' &&
        found.type === 'decision' &&
        found.priority < 10 &&
        !agentDecision(sentence, found)
      )
        return;
      // The agent's own facts read alone are mostly findings of the moment: only those it marks as notes stand.
      if (message.role !== 'user' && found.type === 'fact' && found.priority < 10 && !NOTED.test(sentence)) return;
      // The agent's diagnosis is a bug only when an edit or a fix follows it; else it is one guess of many.
      if (found.cause) {
        const fix = fixOf(input.messages, mi, { error: sentence, terms: codeTerms(sentence), fixedInPlace: true });
        if (!fix && !editedInTurn(input.messages, mi, editsCode)) return;
        found.resolution = (fix && fixText(fix)) || editsAfter(input.messages, mi);
      }
      // A diagnosis that names nothing ("the format mismatch") cannot guide the next session.
      if (found.cause && !isNonLatin(sentence) && !CONCRETE.test(found.content)) return;
      if (found.type === 'decision' && !listGate(sentence, found)) return;
      // A plan ("we need to …") is no cause; a bug whose fix never shows is left out after the merge below.
      if (found.type === 'bug' && found.priority < 10 && PLAN.test(sentence)) return;
      // Within a thread on a reported problem, the agent's bug lines are its attempts: the thread gives the bug.
      if (found.type === 'bug' && message.role !== 'user' && found.priority < 10 && inBugThread(mi)) return;
      found.bare = found.type === 'bug' && found.priority < 10 && !fixShown(found, input.messages, mi);
      // A finding the user then has fixed is no longer true: not a fact in the present tense.
      if (found.type === 'fact' && message.role !== 'user' && fixedAfter(input.messages, mi)) return;
      add(message, mi, si + 1, found);
    });
  });
  const chosen: Candidate[] = [];
  const chars = input.messages.reduce((n, m) => n + m.text.length, 0);
  const maxEvents = Math.min(MAX_EVENTS, MAX_EVENTS_PER_SPAN * Math.max(1, Math.ceil(chars / SPAN_CHARS)));
  // A user message that reports an error (a pasted message, an error quoted in it) opens a new failure.
  const reports = input.messages.flatMap((m, i) =>
    m.role === 'user' && !isBoilerplate(m) && (ERROR_LINE.test(m.text) || reportedError(m.text)) ? [i] : [],
  );
  const merged = mergeBugs(candidates, reports).filter((c) => !bare.has(c.event) || c.event.resolution);
  for (const c of merged.sort((a, b) => b.priority - a.priority || a.order - b.order)) {
    if (chosen.length >= maxEvents) break;
    const taken = chosen.flatMap((o) => [o.terms, ...(o.event.resolution ? [termSet(o.event.resolution)] : [])]);
    if (c.terms.size < 2 || known.some((k) => similar(k, c.terms)) || taken.some((t) => similar(t, c.terms))) continue;
    // The same failure restated ("The problem is …", "The issue is in …") shares fewer words than a copy.
    const bugs =
      c.event.type === 'bug' ? [...knownBugs, ...chosen.filter((o) => o.event.type === 'bug').map((o) => o.terms)] : [];
    if (bugs.some((b) => similar(b, c.terms, SAME_BUG))) continue;
    chosen.push(c);
  }
  return { events: chosen.sort((a, b) => a.order - b.order).map((c) => c.event) };
}

/** Identifiers a diagnosis names (in backticks, or camelCase / snake_case words): what its fix must touch. */
function codeTerms(sentence: string): string[] {
  const quoted = [...sentence.matchAll(/\x60([^\x60]+)\x60/g)].flatMap((m) => m[1]!.match(/[\w$.-]{4,}/g) ?? []);
  const named = sentence.match(/\b(?:[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+_\w+)\b/g) ?? [];
  return [...new Set([...quoted, ...named])];
}

interface Classified {
  type: LogbookEventType;
  content: string;
  priority: number;
  rationale?: string;
  alternatives: string[];
  code?: string;
  resolution?: string;
  /** A cause the agent stated (kept only when a fix follows). */
  cause?: boolean;
  /** A bug with no fix shown yet: kept only if the merge gives it one. */
  bare?: boolean;
}

function isFailure(message: LogbookChunkMessage): boolean {
  return message.failed === true || message.text.split('\n').some((l) => FAILED_LINE.test(l));
}

/** Words left once paths, ids, numbers and code are removed: an event must say something in words. */
function wordCount(text: string): number {
  const prose = text.replace(/\x60[^\x60]*\x60/g, ' ').replace(/\S*[/\\]\S*|\b[0-9a-f]{7,}\b|\S*\d\S*/gi, ' ');
  const latin = prose.split(/\s+/).filter((w) => /^[a-z][a-z'-]*[,.:;!]?$/i.test(w)).length;
  return latin + wordsOf(prose).filter((w) => /[^\x00-\x7f]/.test(w)).length;
}

function classify(raw: string, next: string | undefined, fromUser: boolean): Classified | undefined {
  const marker = MARKER_RE.exec(raw);
  if (marker) {
    const kind = marker[1]!.toLowerCase();
    const type: LogbookEventType =
      kind === 'decision' || kind === 'breaking' ? 'decision' : kind === 'bug' ? 'bug' : 'fact';
    return withDetails(type, tidy(marker[2]!), 10, next);
  }
  const sentence = tidy(raw.replace(/[\u2018\u2019]/g, "'"));
  const nonLatin = isNonLatin(sentence);
  const words = nonLatin ? wordsOf(sentence).length : sentence.split(/\s+/).length;
  if (
    words < (nonLatin ? 3 : 6) ||
    words > 60 ||
    /[?？:：]$/.test(sentence) ||
    (sentence.match(/"/g) ?? []).length % 2 === 1 || // a piece of a string literal, not a sentence
    /^["\u201c][^"\u201d]*["\u201d][.!]?$/.test(sentence) || // a quoted label or string
    NARRATION.test(sentence) ||
    NO_SUBJECT.test(sentence) ||
    TENTATIVE.test(sentence) ||
    INSTRUCTION.test(sentence) ||
    wordCount(sentence) < (nonLatin ? 3 : 4)
  )
    return undefined;
  const weight = fromUser ? 2 : 0;
  if (FIXED_LEAD.test(sentence)) return withDetails('bug', sentence.replace(/^\u2705\s*/, ''), 3, next);
  if (!fromUser && !nonLatin && !agentSentence(sentence)) return undefined;
  if (DECISION_CUE.test(sentence) || (WEAK_DECISION_CUE.test(sentence) && weakDecision(sentence, fromUser))) {
    const decision = withDetails('decision', sentence, 4 + weight, next);
    const reasoned = decision.rationale !== undefined || decision.alternatives.length > 0;
    return fromUser || reasoned || !AGENT_PLAN.test(sentence) ? decision : undefined;
  }
  if (fromUser && userChoice(sentence)) return withDetails('decision', sentence, 4 + weight, next);
  const koCause = KO_BECAUSE_PROBLEM.test(sentence) && KO_PROBLEM_WORD.test(sentence);
  if ((BUG_CUE.test(sentence) || koCause) && !NO_PROBLEM.test(sentence)) {
    // "The bug was …" looks back on a fixed bug; "The issue is …" is a diagnosis still to be borne out.
    const cause = !fromUser && !/\b(?:was|were)\b/i.test(sentence);
    return { ...withDetails('bug', sentence, 3 + weight, next), cause };
  }
  if (FACT_CUE.test(sentence) && (fromUser || !(/^i\b/i.test(sentence) || DESCRIPTIVE_FACT.test(sentence))))
    return withDetails('fact', sentence, 2 + weight, next);
  return undefined;
}

/** The text of the first user message after message `at` ('' when none follows in the chunk). */
function nextUserText(messages: readonly LogbookChunkMessage[], at: number): string {
  return (
    messages
      .slice(at + 1)
      .find((m) => m.role === 'user')
      ?.text.trim() ?? ''
  );
}

/**
 * An agent's sentence that can stand alone: not a fragment (lowercase start), not a restatement whose
 * subject is elsewhere ("This change …"), not a labelled list item of a report unless it names a cause.
 */
function agentSentence(sentence: string): boolean {
  if (/^[a-z]/.test(sentence) || POINTER_SUBJECT.test(sentence)) return false;
  if (LABELLED_ITEM.test(sentence) && !BUG_CUE.test(sentence)) return false;
  const noted = sentence.replace(/^note that\s+/i, '');
  return noted === sentence || !(NARRATION.test(noted) || POINTER_SUBJECT.test(noted));
}

/** "X instead of Y" is the user's decision, or the agent's only as a change it made (English cues). */
function weakDecision(sentence: string, fromUser: boolean): boolean {
  // "yes do that, rather than …" names its choice in another message.
  if (PROBLEM_WORDS.test(sentence) || /^(?:yes|ok(?:ay)?|sure)\b[^.]*\b(?:do|did) (?:that|this|it)\b/i.test(sentence))
    return false;
  if (fromUser || !/\b(?:instead of|rather than)\b/i.test(sentence)) return true;
  return DONE_CHANGE.test(sentence) && !NOT_DONE.test(sentence);
}

/**
 * A failing tool result becomes a bug when the chunk shows its fix: an explanation with a fix cue in
 * a later assistant message, or an edit followed by the same tool succeeding.
 */
function bugFromFailure(messages: readonly LogbookChunkMessage[], at: number): Classified | undefined {
  const failure = messages[at]!.text.split('\n')
    .map((l) => FAILED_LINE.exec(l))
    .find((m) => m !== null);
  if (!failure) return undefined;
  const tool = failure[1]!;
  const error = tidy(stripLinks(failure[2]!.split(' … ').pop()!));
  if (HARNESS_FAILURE.test(error) || !ERROR_LINE.test(error) || error.split(/\s+/).length < 3) return undefined;
  // A read or search that finds nothing is exploration, not a bug of the project.
  if (READ_TOOL.test(tool)) return undefined;
  let command: string | undefined;
  for (let i = at; i >= Math.max(0, at - 2) && !command; i--) {
    const calls = messages[i]!.text.split('\n')
      .map((l) => CALL_LINE.exec(l))
      .filter((m): m is RegExpExecArray => m !== null && m[1] === tool);
    command = calls[calls.length - 1]?.[2];
  }
  if (command && /^[{[]/.test(command)) return undefined;
  // The agent's account of it before the user's next turn: a fix reported done or a past cause first.
  const said = agentSaysAfter(messages, at).filter(
    (s) => FIX_CUE.test(s) && !/[?？]$/.test(s) && wordCount(s) >= 3 && !NARRATION.test(s) && !TENTATIVE.test(s),
  );
  // What was wrong or what changed, naming something: a bare "Fixed." tells the next session nothing.
  const named = said.filter((s) => CONCRETE.test(s));
  const why = named.find((s) => FIX_DONE.test(s) || /\b(?:was|were)\b/.test(s)) ?? named[0] ?? said[0];
  // An edit fixed the failure only with evidence (see fixOf); a fix the agent reports done needs none shown.
  const fix = fixOf(messages, at, { error, tool, command, mentions: why });
  const text = fix && fixText({ ...fix, said: fix.said ?? why });
  if (text) return bug(tool, command, error, text);
  // A fix the agent reports done ("so I added it", "已修复") stands for the edit a log may not show.
  if (why && (FIX_DONE.test(why) || CHANGE_STATED.test(why))) return bug(tool, command, error, why);
  return undefined;
}

function bug(tool: string, command: string | undefined, error: string, resolution: string): Classified | undefined {
  const what = command ? `\x60${clip(command, 60)}\x60` : tool;
  const content = `${what} failed: ${error || 'error'}`;
  if (wordCount(content.replace(/\x60[^\x60]*\x60/g, ' ')) < 2 && wordCount(error) < 2) return undefined;
  return {
    type: 'bug',
    content,
    priority: 5,
    alternatives: [],
    resolution,
    ...(command ? { code: clip(command, 80) } : {}),
  };
}

function withDetails(type: LogbookEventType, sentence: string, priority: number, next: string | undefined): Classified {
  const result: Classified = { type, content: sentence, priority, alternatives: [] };
  const intl = INTL_RATIONALE.exec(sentence)?.slice(1).find(Boolean);
  const rationale =
    RATIONALE_RE.exec(sentence)?.[1] ?? intl ?? (next ? RATIONALE_FOLLOWUP.exec(next.trim())?.[1] : undefined);
  if (rationale && (rationale.split(/\s+/).length >= 2 || (isNonLatin(rationale) && wordsOf(rationale).length >= 2))) {
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
  const value = clip(
    raw
      .replace(/\*\*|\x60/g, '')
      .replace(/\s+(?:because|since|so|and then|which|that)\b.*$/i, '')
      .trim(),
    60,
  );
  if (value.split(/\s+/).length <= 8 && value.length >= 2 && !list.includes(value)) list.push(value);
}
