// Owns events read from a session's turns. A user turn and the agent's work up to the next turn are one
// episode: a request the agent carried out with edits is the user's decision ("request → what changed"),
// a problem the user reported that edits then fixed is a bug (symptom, cause → fix). The user's next turn
// judges the episode: saying it still fails, or asking to undo it, drops it.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { ACCEPT, ASK, CHANGE_WORDS, CHORE, PROBLEM, REDIRECT, REJECTED, STILL_FAILING } from './logbook-cues.js';
import {
  causeOf,
  decisionText,
  diagnosisOf,
  doneOf,
  filesNote,
  pastedError,
  requestOf,
  withError,
  wordTotal,
} from './logbook-episode-text.js';
import { CALL_LINE, editsCode } from './logbook-evidence.js';
import { CHANGE_STATED, editedFiles, editedNote, names, NOT_WORKING, WORKS } from './logbook-fixes.js';
import { termSet } from './logbook-merge.js';
import { reportedError } from './logbook-reports.js';
import { ownWords } from './logbook-own-words.js';
import { isNonLatin } from './segments.js';

export interface EpisodeEvent {
  /** Index of the user turn the event cites. */
  at: number;
  type: 'decision' | 'bug';
  content: string;
  resolution?: string;
  priority: number;
}

/** Files a subagent was asked to edit ("→ Task: Edit the file `/a/b.ts` …"): its own edits are not shown. */
function delegatedEdits(message: LogbookChunkMessage): string[] {
  return message.text.split('\n').flatMap((line) => {
    const call = /^→ (?:Task|Agent): (?:edit|write|modify|update|fix|implement|add|change|create)\b(.*)$/i.exec(line);
    const path = call?.[1]?.match(/[\w./\\-]+\.[A-Za-z0-9]{1,10}\b/)?.[0];
    return path ? [path] : [];
  });
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
  // A summary or write-up asked for ("总结一下", "整理一份说辞", "summarize"): words for the user, no decision.
  if (/\bsummari[sz]e\b|总结|整理一份|说辞|まとめて|요약해/i.test(request)) return true;
  const pointer =
    /\b(?:both|those|these|them|it|that|this|same)\b|mismo|esto|eso|那个|这个|同样|그거|이거|같은|それ|これ|同じ/i;
  return request.length < (isNonLatin(request) ? 16 : 50) && pointer.test(request);
}

/** A turn that only asks (why, what does it mean, explain): answered in words unless edits follow. */
const QUESTION = new RegExp(
  String.raw`[?？]$|^(?:why|what|how|explain|can you (?:find|explain|tell)|/explain|show me|quiero ver|` +
    String.raw`mu[eé]strame)\b|@workspace /explain|` +
    '什么意思|为什么|怎么回事|是什么|是啥|怎么样|왜|뭐야|무슨|なぜ|どういう|por qué|qué significa|' +
    '(?:吗|呢|嗎|ですか|ますか|까요?|나요)[。.!！]?$',
  'iu',
);

/** True when the agent's closing words state a change it made (past tense, not a named change in a list). */
function saysChanged(work: readonly LogbookChunkMessage[], request: string): boolean {
  const done = doneOf(work, request);
  return done !== undefined && (CHANGE_STATED.test(done) || CHANGE_WORDS.test(done));
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
  /** The user's next turn, in their own words ('' at the end), and its index. */
  reply: string;
  next: number | undefined;
  files: string[];
  error: string | undefined;
}

/**
 * The words a user typed above a long paste (advice, a review, a log with headings): the lead paragraph up to
 * the first blank line, heading, fence or list, when short and not itself an instruction template.
 */
function leadBeforePaste(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((l) =>
    /^(?:#{1,6} |\x60{3}|\s*(?:[-*]|\d+\.) |<)|^[\s\u2500-\u257f]*[\u251c\u2514]/.test(l),
  );
  const lead = lines
    .slice(0, end < 0 ? lines.length : end)
    .join('\n')
    .split(/\n\s*\n/)[0]!
    .trim();
  const template = /<[a-z_-]+>|\byou (?:are|must|should|will)\b|^(?:instructions?|guidelines?|rules?)\b/i;
  // Code in it, or a path first: the paste began in the first line, and the event would not quote the user.
  const pasted = /[{};]|^\S*[\w.-]+[/\\][\w.-]+[/\\]/.test(lead);
  return lead.length >= 15 && lead.length <= 600 && !template.test(lead) && !pasted ? lead : '';
}

/** The user's turns with the work that followed each. */
function turnsOf(messages: readonly LogbookChunkMessage[], skip: (m: LogbookChunkMessage) => boolean): Turn[] {
  // Each user turn's own words, read once: the turn's own and the previous turn's reply.
  const words = messages.map((m) =>
    m.role !== 'user' ? '' : skip(m) ? ownWords(leadBeforePaste(m.text)).trim() : ownWords(m.text).trim(),
  );
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
      next,
      files: [...new Set(files)],
      error: reportedError(text) ?? pastedError(text),
    };
  });
}

/** The user's next word taking the work as done: it works, thanks or praise, or a short "commit it". */
const takenAsDone = (reply: string): boolean =>
  WORKS.test(reply) || ACCEPTED.test(reply) || (SHIP.test(reply) && reply.length <= 80);

/** A turn that reports a problem: in words, or with an error it pasted. */
const reportsProblem = (turn: Turn): boolean => PROBLEM.test(turn.own) || turn.error !== undefined;

/** Code the agent only showed, which the user's next word says works once applied ("It's working now"). */
function appliedAdvice(turn: Turn): boolean {
  return takenAsDone(turn.reply) && turn.work.some((m) => m.role === 'assistant' && /^\x60{3}/m.test(m.text));
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
function bugOf(turn: Turn, symptom: string, movedOn = false, causeIsSymptom = false): string | undefined {
  const cause = causeIsSymptom ? undefined : causeOf(turn.work);
  const done = doneOf(turn.work, symptom, true);
  const wanted = termSet(`${symptom} ${turn.error ?? ''}`);
  const borneOut =
    (movedOn && done !== undefined) ||
    causeIsSymptom ||
    takenAsDone(turn.reply) ||
    cause !== undefined ||
    turn.files.some((f) => names(`${turn.own} ${turn.error ?? ''}`, f)) ||
    checkedAfterEdit(turn.work) ||
    // The agent's closing words state a change done to what the user named.
    (done !== undefined && CHANGE_STATED.test(done) && [...termSet(done)].some((t) => wanted.has(t)));
  // "edited X" says which files, not what changed: only the user's thanks make it worth a fix line.
  const edited = turn.files.length > 0 && takenAsDone(turn.reply);
  const fix = done ?? (edited ? editedNote(turn.files) : '');
  // An edit (a bare diff too), or code the user applied, bears the stated cause out: it accounts for the fix.
  const changed = turn.files.length > 0 || turn.work.some(editsCode) || appliedAdvice(turn);
  if (borneOut && !fix && cause && changed) return `${cause}${filesNote(turn.files, cause)}`;
  if (!borneOut || !fix) return undefined;
  const said = cause && !fix.includes(cause.slice(0, 40)) ? `${cause} → ` : '';
  return `${said}${fix}${done ? filesNote(turn.files, `${said}${fix}`) : ''}`;
}

/** A turn that judges the work before it failed or wrong: "still fails", "no, revert", "instead …". */
function judgedWrong(reply: string): boolean {
  // "It's working now, thanks! … actually …": a reply that opens by saying it works judges nothing wrong.
  if (WORKS.test(reply.slice(0, 40))) return false;
  const opening = reply.split(/(?<=[.!?。！？])\s|\n/)[0] ?? '';
  return (
    STILL_FAILING.test(reply) ||
    NOT_WORKING.test(reply) ||
    REJECTED.test(reply) ||
    REDIRECT.test(opening) ||
    COMPLAINT.test(reply)
  );
}

/** A reply saying the work broke something or missed a part ("nooo", "again", "te faltó", "忘了"). */
const COMPLAINT = new RegExp(
  String.raw`^no+\b|\b(?:again|de nuevo|otra vez|you (?:missed|forgot|broke)|te falt[oó]|rompiste|no est[aá] ` +
    String.raw`funcionando|when (?:testing|trying|running) it|(?:i|we) (?:tried|tested|ran) it|now (?:i|we) get|` +
    String.raw`after (?:this|that|the|your) (?:change|fix|update))\b|又(?:出现|不|没)|忘了|漏了|빠졌|빠뜨|忘れ|` +
    'また(?:エラー|同じ)',
  'iu',
);

/** A turn that opens with praise closes the thread before it ("muy bien, ahora …", "great, now …"). */
const FRESH = new RegExp(
  String.raw`^(?:lgtm|looks good|perfect|great|nice|awesome|thanks|thank you|good|ok(?:ay)?,? now|` +
    String.raw`perfecto|excelente|genial|gracias|(?:muy |bastante )?bien)\b|` +
    '^(?:좋아|좋네|완벽|감사|完璧|いいね|ありがとう|完美|很好|好的|谢谢|不错)',
  'iu',
);

/** Words pointing back at the work just done ("those styles", "the same", "esos", "这些", "同じ"). */
const POINTER =
  /\b(?:those|these|them|the same|that one|this one|esos|esas|estos|estas|lo mismo)\b|那些|这些|同样|それら|これら|同じ|그것들/i;

const GO_ON = /^(?:@agent\b|try again|retry|continue|go on|implement (?:the )?(?:following )?plan)/i;

/** A turn with no subject of its own: it goes on with the work before it ("@agent Continue", "现在请你修复吧"). */
function subjectless(turn: Turn): boolean {
  if (GO_ON.test(turn.own)) return true;
  const request = requestOf(turn.own, false);
  return request === undefined || (termSet(request).size < 2 && request.length < (isNonLatin(request) ? 12 : 30));
}

/** A turn that tweaks the work just done ("mmm, thinner on mobile", "also …", "还有", "그리고"). */
const TWEAK =
  /^(?:mmm*|hmm+|casi|almost|also|and|plus|y|también|tambien|además|ademas|还有|另外|再|그리고|또|また|あと|さらに)(?=[\s,，、]|$)/iu;

const DECLINED = new RegExp(
  String.raw`\b(?:didn't|did not|haven't|have not|couldn't|could not)\b|\bno (?:implementé|hice|cambié|pude)|` +
    '没有(?:修改|实现)|していません|하지 않았',
  'i',
);

/** The agent's closing words saying it did not do it ("No implementé …", "I didn't change …"). */
function agentDeclined(work: readonly LogbookChunkMessage[]): boolean {
  const said = [...work].reverse().find((m) => m.role === 'assistant' && m.text.trim().length > 15)?.text ?? '';
  return DECLINED.test(said);
}

/** Turns on one subject: `doers` are those whose work stands (the first, corrections, continuations). */
interface Thread {
  turns: Turn[];
  doers: Turn[];
}

/**
 * How a turn goes on with the thread before it: as a correction or continuation (its work supersedes), as
 * a tweak of the same files ("mmm, …", "also …": one event with it), or not at all.
 */
function followsUp(turn: Turn, thread: Thread): 'supersedes' | 'refines' | undefined {
  const last = thread.turns[thread.turns.length - 1]!;
  // Only the user's very next turn goes on with a thread: a question between closes it.
  if (last.next !== turn.at) return undefined;
  // "It works", "いけた": the verdict on the thread, not more of it.
  if (WORKS.test(turn.own.slice(0, 80)) || ACCEPTED.test(turn.own)) return undefined;
  const shares = turn.files.some((f) => thread.turns.some((t) => t.files.includes(f)));
  if (reportsProblem(turn)) {
    // A failure right after a fix of the same files is the same bug going on; else a new one.
    const bug = reportsProblem(thread.turns[0]!);
    if (bug && (shares || judgedWrong(last.reply))) return 'supersedes';
    // A failure met after a change that the agent then diagnoses is a bug of its own, not more of the change.
    return subjectless(turn) && (bug || !diagnosisOf(turn.work)) ? 'supersedes' : undefined;
  }
  // A correction of a tweak is a tweak as well: it never replaces the subject's own work.
  if (judgedWrong(last.reply) || subjectless(turn)) return thread.doers.includes(last) ? 'supersedes' : 'refines';
  if (FRESH.test(turn.own)) return undefined;
  // "Make those image styles only apply to …" on the same files: a correction of the work it points back to.
  if (POINTER.test(turn.own.slice(0, 120)) && shares) return thread.doers.includes(last) ? 'supersedes' : 'refines';
  return TWEAK.test(turn.own) && shares ? 'refines' : undefined;
}

function threadsOf(turns: readonly Turn[]): Thread[] {
  const threads: Thread[] = [];
  for (const turn of turns) {
    const current = threads[threads.length - 1];
    const how = current && followsUp(turn, current);
    if (!how) threads.push({ turns: [turn], doers: [turn] });
    else {
      current!.turns.push(turn);
      if (how === 'supersedes') current!.doers.push(turn);
    }
  }
  return threads;
}

/** The latest statement of what changed that bears on the subject: a correction supersedes the first try. */
function latestDone(doers: readonly Turn[], request: string): string | undefined {
  for (const turn of [...doers].reverse()) {
    const done = doneOf(turn.work, request);
    if (done) return done;
  }
  return undefined;
}

/**
 * The events of the chunk's episodes, one per thread of turns on a subject: the first turn's words, the
 * last turn's fix. `skip` tells a user message that is no turn of the user's own (pasted instructions).
 */
export function episodeEvents(
  messages: readonly LogbookChunkMessage[],
  skip: (m: LogbookChunkMessage) => boolean,
): { events: EpisodeEvent[]; read: number[]; edited: number[]; bugSpans: [number, number][] } {
  const edited = turnsOf(messages, skip).filter(
    (turn) =>
      // A chat export or a subagent may hide the edit; the agent's closing words stating a change stand for it.
      (turn.files.length > 0 ||
        turn.work.some(editsCode) ||
        appliedAdvice(turn) ||
        (!QUESTION.test(turn.own) && saysChanged(turn.work, turn.own))) &&
      !chore(turn.own) &&
      !NOTICE.test(turn.own),
  );
  const threads = threadsOf(edited);
  const events = threads.flatMap(({ turns: thread, doers: all }, k): EpisodeEvent[] => {
    // Work the user's next word judges failed or wrong is no decision and no fixed bug: the latest work the
    // user did not judge so stands (a last attempt that broke again leaves the one before it).
    const last = all.findLast((t) => !judgedWrong(t.reply));
    if (!last) return [];
    const doers = all.slice(0, all.indexOf(last) + 1);
    const first = thread.find((t) => !subjectless(t) && !ACCEPT.test(t.own)) ?? thread[0]!;
    // "@agent Continue", "try again": a thread with no words of the user's own about what it wants.
    if (GO_ON.test(first.own)) return [];
    const problem = reportsProblem(first);
    const request = requestOf(first.own, problem);
    const files = [...new Set(doers.flatMap((t) => t.files))];
    if (problem) {
      // "porque da error" names nothing: the agent's diagnosis of it stands for the symptom.
      const stated = withError(request, first.error);
      const diagnosis = stated ? undefined : diagnosisOf(first.work);
      const symptom = stated ?? diagnosis;
      // After a run of corrections, the user turning to something else (even a new problem: a failure of the
      // same work would have joined the thread) takes the last fix as working.
      const movedOn = doers.length > 1 && last.reply !== '';
      const resolution = symptom && bugOf(last, symptom, movedOn, diagnosis !== undefined);
      if (!symptom || !resolution) return [];
      const priority = WORKS.test(last.reply) ? 8 : 7;
      return [{ at: first.at, type: 'bug' as const, content: symptom, resolution, priority }];
    }
    if (!request || asksOnly(request) || QUESTION.test(request) || ACCEPT.test(first.own)) return [];
    const done = latestDone(doers, request);
    // A request carried out with edits stands on its own words when the agent states the change poorly.
    const asked = ASK.test(request) && wordTotal(request) >= (isNonLatin(request) ? 12 : 8);
    if (!done && !(files.length > 0 && asked && !agentDeclined(last.work))) return [];
    // A request the agent answers with a cause ("The issue was a typo …") described a failure: a fixed bug.
    const cause = done && causeOf(last.work);
    if (cause) {
      const fix = `${cause} → ${done}${filesNote(files, `${request} ${cause} ${done}`)}`;
      return [{ at: first.at, type: 'bug' as const, content: request, resolution: fix, priority: 7 }];
    }
    const content = done ? decisionText(request, done, files) : `${request}${filesNote(files, request)}`;
    return [{ at: first.at, type: 'decision' as const, content, priority: done ? (k === 0 ? 7 : 6) : 4 }];
  });
  // The turns of a thread that gave an event are read: they give no second event.
  const read = threads.filter((t) => t.turns.some((turn) => events.some((e) => e.at === turn.at)));
  // The messages of a thread that began with a reported problem: the agent's own bug lines there are its attempts.
  const bugSpans = threads
    .filter(({ turns }) => reportsProblem(turns[0]!) || events.some((e) => e.type === 'bug' && e.at === turns[0]!.at))
    .map(({ turns }): [number, number] => [
      turns[0]!.at,
      turns[turns.length - 1]!.at + turns[turns.length - 1]!.work.length,
    ]);
  return {
    events,
    read: read.flatMap((t) => t.turns.map((turn) => turn.at)),
    edited: edited.map((turn) => turn.at),
    bugSpans,
  };
}
