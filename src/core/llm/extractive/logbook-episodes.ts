// Owns events read from a session's turns. A user turn and the agent's work up to the next turn are one
// episode: a request the agent carried out with edits is the user's decision ("request → what changed"),
// a problem the user reported that edits then fixed is a bug (symptom, cause → fix). The user's next turn
// judges the episode: saying it still fails, or asking to undo it, drops it.
import type { LogbookChunkMessage } from '../task-schemas.js';
import {
  ACCEPT,
  ASK,
  BUG_CUE,
  CHANGE_WORDS,
  CHORE,
  CONCRETE,
  NARRATION,
  NO_CHANGE_SAID,
  PROBLEM,
  REDIRECT,
  REJECTED,
  STILL_FAILING,
  TENTATIVE,
} from './logbook-cues.js';
import { CALL_LINE, editsCode, withoutToolLines } from './logbook-evidence.js';
import { CHANGE_STATED, editedFiles, names, NOT_WORKING, shortPath, WORKS } from './logbook-fixes.js';
import { termSet } from './logbook-merge.js';
import { reportedError } from './logbook-reports.js';
import { ownWords } from './logbook-own-words.js';
import { clipAtWord, isNonLatin, proseSentences, tidy, wordsOf } from './segments.js';

export interface EpisodeEvent {
  /** Index of the user turn the event cites. */
  at: number;
  type: 'decision' | 'bug';
  content: string;
  resolution?: string;
  priority: number;
}

const changes = (s: string): boolean =>
  CHANGE_STATED.test(s) || CHANGE_WORDS.test(s) || /\S\s*(?:→|->)\s*\S/.test(s.replace(/\x60[^\x60]*\x60/g, 'x'));

/** Files a subagent was asked to edit ("→ Task: Edit the file `/a/b.ts` …"): its own edits are not shown. */
function delegatedEdits(message: LogbookChunkMessage): string[] {
  return message.text.split('\n').flatMap((line) => {
    const call = /^→ (?:Task|Agent): (?:edit|write|modify|update|fix|implement|add|change|create)\b(.*)$/i.exec(line);
    const path = call?.[1]?.match(/[\w./\\-]+\.[A-Za-z0-9]{1,10}\b/)?.[0];
    return path ? [path] : [];
  });
}

const REQUEST_MAX = 150;
const DONE_MAX = 120;

const wordTotal = (s: string): number => (isNonLatin(s) ? wordsOf(s).length : s.split(/\s+/).length);

/** The sentences of a request worth quoting: the problem or the ask, at most two, whole when short. */
function requestOf(own: string, problem: boolean): string | undefined {
  const sentences = proseSentences(own)
    .map((s) => tidy(s).replace(/^(?:note|fyi|nota|ps)\s*[:：]\s*/i, ''))
    .filter((s) => wordTotal(s) >= (isNonLatin(s) ? 3 : 4) && !/^(?:hi|hello|hey|thanks|thank you)\b/i.test(s));
  if (sentences.length === 0) return undefined;
  const first = sentences.find((s) => (problem ? PROBLEM : ASK).test(s)) ?? sentences[0]!;
  const at = sentences.indexOf(first);
  const next = sentences[at + 1];
  const text = next && first.length + next.length < REQUEST_MAX ? `${first} ${next}` : first;
  return clipAtWord(text.replace(/[:：]$/, ''), REQUEST_MAX);
}

/** The agent's sentences in the episode, tool lines left out. */
function agentSentences(messages: readonly LogbookChunkMessage[]): string[] {
  return messages.flatMap((m) =>
    m.role === 'assistant' ? proseSentences(withoutToolLines(m.text).replace(/[\u2018\u2019]/g, "'")).map(tidy) : [],
  );
}

const statement = (s: string): boolean =>
  !/[?？]$/.test(s) &&
  (!/[:：]$/.test(s) || (changes(s) && s.split(/\s+/).length >= 6)) &&
  !NO_CHANGE_SAID.test(s) &&
  (!NARRATION.test(s) || changes(s)) &&
  !TENTATIVE.test(s) &&
  s.split(/\s+/).length <= 45;

/** A summary's label before what it lists ("Changes:", "변경 사항:", "修改内容：", "Cambios:"). */
const SUMMARY_LABEL =
  /^(?:changes?|summary|what changed|변경 ?사항|수정 ?내용|修改内容|变更|変更(?:内容|点)|修正内容|cambios?|resumen)\s*[:：]\s*/i;

/**
 * What the agent says it changed, the sentences nearest the request first; none when it states nothing.
 * Unless `loose` (a bug's fix), a change must name code or share a word with the request.
 */
function doneOf(messages: readonly LogbookChunkMessage[], request: string, loose = false): string | undefined {
  const wanted = termSet(request);
  const last = [...messages]
    .reverse()
    .find((m) => m.role === 'assistant' && withoutToolLines(m.text).trim().length > 15);
  const pool = (last ? agentSentences([last]) : []).map((s) => s.replace(SUMMARY_LABEL, ''));
  const scored = pool
    .map((s, i) => {
      const overlap = [...termSet(s)].filter((t) => wanted.has(t)).length;
      const named = CONCRETE.test(s) ? 1 : 0;
      // A change must name what it touched, or share a word with the request: "Fixed it." tells nothing.
      const score = loose || overlap + named > 0 ? (changes(s) ? 3 : 0) + named + Math.min(overlap, 3) : 0;
      return { s, i, score };
    })
    .filter((x) => x.score >= 3 && statement(x.s) && wordTotal(x.s) >= 3);
  const best = scored.sort((a, b) => b.score - a.score || a.i - b.i).slice(0, 2);
  if (best.length === 0) return undefined;
  const [a, b] = best.sort((x, y) => x.i - y.i);
  const text = b && a!.s.length + b.s.length < DONE_MAX ? `${a!.s}; ${b.s}` : a!.s;
  return clipAtWord(text.replace(/[:：]$/, ''), DONE_MAX);
}

/** A notice the client wrote into the user's turn (a finished background task, an interruption). */
const NOTICE = /^(?:full transcript available|caveat:|\[request interrupted|this session is being continued)/i;

/**
 * A turn that is no decision even when edits follow: a question about the state ("did you finish …",
 * "will it be lost …"), a command line pasted, or a short request that points back ("fix both", "同样").
 */
function asksOnly(request: string): boolean {
  if (/^(?:will|did|does|is|are|was|were|has|have)\b|^do (?:you|we|i|they)\b/i.test(request)) return true;
  const shell =
    /^(?:\$\s*)?(?:cd|source|npm|npx|git|node|python3?|pip|cargo|bun|pnpm|yarn|docker|uv|sudo)\s\S*[-~/.&|]/;
  if (shell.test(request)) return true;
  const pointer =
    /\b(?:both|those|these|them|it|that|this|same)\b|mismo|esto|eso|那个|这个|同样|그거|이거|같은|それ|これ|同じ/i;
  return request.length < (isNonLatin(request) ? 16 : 50) && pointer.test(request);
}

/** A turn that only asks (why, what does it mean, explain): answered in words unless edits follow. */
const QUESTION = new RegExp(
  String.raw`[?？]$|^(?:why|what|how|explain|can you (?:find|explain|tell)|/explain|show me|quiero ver|` +
    String.raw`mu[eé]strame)\b|@workspace /explain|` +
    '什么意思|为什么|怎么回事|是什么|왜|뭐야|무슨|なぜ|どういう|por qué|qué significa',
  'iu',
);

/** True when the agent's closing words state a change it made (past tense, not a named change in a list). */
function saysChanged(work: readonly LogbookChunkMessage[], request: string): boolean {
  const done = doneOf(work, request);
  return done !== undefined && (CHANGE_STATED.test(done) || CHANGE_WORDS.test(done));
}

/** A cause given as a label ("원인: …", "Root cause: …", "原因：…", "Causa: …"). */
const CAUSE_LABEL = /^(?:root cause|cause|causa|原因|원인|根本原因)\s*[:：]/i;

/** The cause the agent states in the episode ("The problem is …", "原因是 …"), when it names something. */
function causeOf(messages: readonly LogbookChunkMessage[]): string | undefined {
  const cause = agentSentences(messages).find(
    (s) => (BUG_CUE.test(s) || CAUSE_LABEL.test(s)) && statement(s) && (isNonLatin(s) || CONCRETE.test(s)),
  );
  return cause ? clipAtWord(cause, 140) : undefined;
}

/** The first line of code pasted right after "we get this error:" (any wording ending in "error:"). */
function pastedError(text: string): string | undefined {
  const m = /(?:error|errors|错误|报错|エラー|에러|오류)[^\n]{0,20}[:：]?\s*\n\x60{3}[^\n]*\n([^\n]{8,200})/i.exec(
    text,
  );
  return m?.[1]?.trim();
}

/** The user's words about a failure with the error they pasted, when the words do not quote it. */
function withError(request: string | undefined, error: string | undefined): string | undefined {
  if (!error || request?.includes(error.slice(0, 30))) return request ?? error;
  // "For the code present, we get this error:" only introduces the error.
  if (!request || /\b(?:i|we) (?:get|got|have|see)\b|\b(?:following|below)\b|^errors?\b/i.test(request)) return error;
  const words = request.replace(/\s*(?:[,:：]|(?:with|con) (?:this|este) error)[\s\S]*$/i, '');
  const intro = /\b(?:getting|seeing)\b.{0,20}\berror\b/i.test(words);
  return !intro && words.length <= 70 && !/[?？]/.test(words) ? `${words}: ${error}` : error;
}

/** The files an episode edited, as their last two path segments, when its text does not already name them. */
function filesNote(files: string[], text: string): string {
  const unnamed = files.filter((f) => !names(text, f)).map(shortPath);
  return unnamed.length > 0 ? ` (in ${[...new Set(unnamed)].slice(0, 3).join(', ')})` : '';
}

/** The user taking the work as done: committing it, or praising it. */
const ACCEPTED = new RegExp(
  String.raw`^(?:lgtm|looks good|perfect|great|nice|awesome|perfecto|excelente|genial)\b|` +
    '^(?:좋아|좋네|완벽|完璧|いいね|完美|很好)',
  'iu',
);
/** A turn asking for chores only: commit, push, run the tests, continue (a short request to ship included). */
function chore(own: string): boolean {
  return CHORE.test(own) || (SHIP.test(own) && own.length <= 80 && !PROBLEM.test(own) && !ALSO_CHANGE.test(own));
}
/** A change asked besides shipping ("fix X and push"). */
const ALSO_CHANGE =
  /\b(?:fix|add|change|remove|update|rename|make)\b|修正|追加|変更|削除|수정|추가|변경|삭제|修复|添加|修改|删除|arregla|agrega|cambia|quita/i;

/** A short reply asking to commit or push the work: the user takes it as done. */
const SHIP = /\b(?:commit|push|merge|ship)\b|커밋|푸시|푸쉬|コミット|プッシュ|提交|推送/i;
/** A build, test or type check the agent ran (its result line follows the call). */
const CHECK_RUN = /\b(?:test|tests|build|typecheck|tsc|lint|check|compile|vitest|jest|pytest|vet)\b/i;

interface Turn {
  at: number;
  own: string;
  /** The agent's messages up to the next turn. */
  work: LogbookChunkMessage[];
  /** The user's next turn, in their own words ('' at the end). */
  reply: string;
  files: string[];
  error: string | undefined;
}

/** The user's turns with the work that followed each. */
function turnsOf(messages: readonly LogbookChunkMessage[], skip: (m: LogbookChunkMessage) => boolean): Turn[] {
  // Each user turn's own words, read once: the turn's own and the previous turn's reply.
  const words = messages.map((m) => (m.role === 'user' && !skip(m) ? ownWords(m.text).trim() : ''));
  const starts = words.flatMap((w, i) => (w ? [i] : []));
  return starts.map((at, k) => {
    const work = messages.slice(at + 1, starts[k + 1] ?? messages.length);
    const next = starts[k + 1];
    // A chat export writing its own history file is no edit of the project.
    const files = work
      .flatMap((m) => [...editedFiles(m), ...delegatedEdits(m)])
      .filter((f) => !/[/\\]\.specstory[/\\]/.test(f));
    const text = messages[at]!.text;
    return {
      at,
      own: words[at]!,
      work,
      reply: next === undefined ? '' : words[next]!.slice(0, 300),
      files: [...new Set(files)],
      error: reportedError(text) ?? pastedError(text),
    };
  });
}

/** True when a build, test or check the agent ran after its last edit in the turn passed. */
function checkedAfterEdit(work: readonly LogbookChunkMessage[]): boolean {
  const last = work.findLastIndex((m) => editedFiles(m).length > 0 || editsCode(m));
  if (last < 0) return false;
  let tool: string | undefined;
  for (const line of work.slice(last + 1).flatMap((m) => m.text.split('\n'))) {
    const call = CALL_LINE.exec(line);
    if (call) tool = CHECK_RUN.test(call[2]!) ? call[1] : undefined;
    else if (tool && line.startsWith(`\u2190 ${tool}`)) return !line.startsWith(`\u2190 ${tool} FAILED`);
  }
  return false;
}

/**
 * A bug's fix with its evidence: the user's thanks or commit, a stated cause, an edit of a file the report
 * names, a check passing after the edit, or the agent stating a change to what the user named.
 */
function bugOf(turn: Turn, symptom: string): string | undefined {
  const cause = causeOf(turn.work);
  const done = doneOf(turn.work, symptom, true);
  const wanted = termSet(`${symptom} ${turn.error ?? ''}`);
  const borneOut =
    WORKS.test(turn.reply) ||
    ACCEPTED.test(turn.reply) ||
    (SHIP.test(turn.reply) && turn.reply.length <= 80) ||
    cause !== undefined ||
    turn.files.some((f) => names(`${turn.own} ${turn.error ?? ''}`, f)) ||
    checkedAfterEdit(turn.work) ||
    // The agent's closing words state a change done to what the user named.
    (done !== undefined && CHANGE_STATED.test(done) && [...termSet(done)].some((t) => wanted.has(t)));
  const fix = done ?? (turn.files.length > 0 ? `edited ${turn.files.slice(0, 3).map(shortPath).join(', ')}` : '');
  if (!borneOut || !fix) return undefined;
  const said = cause && !fix.includes(cause.slice(0, 40)) ? `${cause} → ` : '';
  return `${said}${fix}${done ? filesNote(turn.files, `${said}${fix}`) : ''}`;
}

/**
 * The events of the chunk's episodes. `skip` tells a user message that is no turn of the user's own
 * (pasted instructions, templates).
 */
export function episodeEvents(
  messages: readonly LogbookChunkMessage[],
  skip: (m: LogbookChunkMessage) => boolean,
): EpisodeEvent[] {
  const events: EpisodeEvent[] = [];
  let open: { at: number; symptom: string } | undefined;
  turnsOf(messages, skip).forEach((turn, k) => {
    const { at, own, work, reply, files, error } = turn;
    // A chat export or a subagent may hide the edit; the agent's closing words stating a change stand for it.
    const edited = files.length > 0 || work.some(editsCode) || (!QUESTION.test(own) && saysChanged(work, own));
    const problem = PROBLEM.test(own) || error !== undefined;
    if (!edited || chore(own) || NOTICE.test(own) || (ACCEPT.test(own) && !open)) return;
    const request = requestOf(own, problem);
    if (STILL_FAILING.test(reply) || NOT_WORKING.test(reply) || REJECTED.test(reply) || REDIRECT.test(reply)) {
      // The symptom stays open: the turn that fixes it next takes it over.
      if (problem && !open) open = { at, symptom: withError(request, error) ?? '' };
      return;
    }
    if (open || problem) {
      const symptom = open?.symptom || withError(request, error);
      const resolution = symptom ? bugOf(turn, symptom) : undefined;
      if (symptom && resolution) {
        events.push({
          at: open?.at ?? at,
          type: 'bug',
          content: symptom,
          resolution,
          priority: WORKS.test(reply) ? 8 : 7,
        });
      }
      const tookOver = open !== undefined && !problem;
      open = undefined;
      // A request that took over an open problem is the user's decision as well.
      if (!tookOver) return;
    }
    const done = request && !asksOnly(request) && doneOf(work, request);
    if (!request || !done) return;
    const content = `${request} → ${done}${filesNote(files, `${request} ${done}`)}`;
    events.push({ at, type: 'decision', content, priority: k === 0 ? 7 : 6 });
  });
  return events;
}
