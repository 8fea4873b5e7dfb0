// Owns the words of an episode: the request quoted from the user's turn, the change the agent states it
// made, the cause it gives, and the error the user pasted. Narration, plans, code fragments and to-do
// items are no statement of a change.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { ASK, BUG_CUE, CHANGE_WORDS, CONCRETE, NARRATION, NO_CHANGE_SAID, PROBLEM, TENTATIVE } from './logbook-cues.js';
import { withoutToolLines } from './logbook-evidence.js';
import { CHANGE_STATED, names, shortPath } from './logbook-fixes.js';
import { termSet } from './logbook-merge.js';
import { clipAtWord, isNonLatin, proseSentences, tidy, wordsOf } from './segments.js';

export const changes = (s: string): boolean =>
  CHANGE_STATED.test(s) || CHANGE_WORDS.test(s) || ONE_ARROW.test(s.replace(/\x60[^\x60]*\x60/g, 'x'));

/** "a → b" states a change; a chain of arrows ("提问 → 检索 → 回答") is a flow. */
const ONE_ARROW = /^(?:(?!→|->).)*\S\s*(?:→|->)\s*\S(?:(?!→|->).)*$/;

const REQUEST_MAX = 220;
const DONE_MAX = 160;

export const wordTotal = (s: string): number => (isNonLatin(s) ? wordsOf(s).length : s.split(/\s+/).length);

/** Praise or hesitation that opens a turn ("muy bien, casi perfecto, …", "mmm casi,", "great, now"). */
const PRAISE = new RegExp(
  String.raw`^(?:(?:(?:muy |bastante )?bien|casi perfecto|perfecto|excelente|genial|mmm+|casi|ok(?:ay)?|great|` +
    String.raw`perfect|nice|good|thanks|bueno|dale|(?:works )?(?:way |much |a lot )better|好的|很好|不错)[,.!，。\s]+)+`,
  'i',
);

const PASTED_CODE = /^(?:\w+(?:\.\w+)*\s*=\s*\S|["']{3}|(?:raise|return|import|from|def|class|const|let)\s)/;

/** The sentences of a request worth quoting: the problem or the ask, at most two, whole when short. */
export function requestOf(own: string, problem: boolean): string | undefined {
  // A line of code the user pasted unfenced ("users = engine.convert(df)", a docstring) asks nothing.
  const prose = own
    .split('\n')
    .filter((line) => !PASTED_CODE.test(line.trim()))
    .join('\n');
  const sentences = proseSentences(prose)
    .map((s) =>
      tidy(s)
        .replace(/^(?:note|fyi|nota|ps)\s*[:：]\s*/i, '')
        .replace(PRAISE, ''),
    )
    .filter((s) => wordTotal(s) >= (isNonLatin(s) ? 3 : 4) && !/^(?:hi|hello|hey|thanks|thank you)\b/i.test(s));
  if (sentences.length === 0) return undefined;
  const found = sentences.find((s) => (problem ? PROBLEM : ASK).test(s)) ?? sentences[0]!;
  const first = fromClauseOf(found, STRONG_ASK.exec(found)?.index ?? 0);
  const at = sentences.indexOf(found);
  const next = sentences[at + 1];
  const text = next && first.length + next.length < REQUEST_MAX ? `${first} ${next}` : first;
  return clipAtClause(text.replace(/[:：]$/, ''), REQUEST_MAX);
}

/** An ask in so many words ("necesito que …", "I want …", "请帮我 …"). */
const STRONG_ASK =
  /\b(?:necesito|quiero|please|i (?:want|need)|i'd like|can you|could you)\b|请|帮我|してください|해 ?(?:줘|주세요)/i;

/** A run-on sentence whose ask comes late, from the clause that holds the ask ("…fake data, no tiene … necesito …"). */
function fromClauseOf(sentence: string, ask: number): string {
  if (sentence.length <= REQUEST_MAX || ask < REQUEST_MAX * 0.6) return sentence;
  const start = Math.max(...[', ', '; ', '，', '；'].map((sep) => sentence.lastIndexOf(sep, ask) + sep.length));
  return start > 2 ? sentence.slice(start).trim() : sentence;
}

/**
 * A long request cut after its last whole clause (a comma or semicolon past 40% of the room), else at a word;
 * long asides in brackets go first.
 */
export function clipAtClause(full: string, max: number): string {
  if (full.length <= max) return full;
  const text = full.replace(/\s*[(（][^)）]{20,}[)）]/g, '');
  if (text.length <= max) return text;
  // The last clause end in the room, outside inline code ("`f(a, b)`" is one piece).
  const ends = [...text.slice(0, max).matchAll(/, |; | \u2014 | - |，|；|、/g)].map((m) => m.index);
  const even = (i: number, mark: RegExp) => (text.slice(0, i).match(mark) ?? []).length % 2 === 0;
  const cut = ends.findLast((i) => i >= max * 0.4 && even(i, /\x60/g) && even(i, /"/g));
  // A clause cut before its verb leaves a connective hanging ("…prefill, and if so").
  const hanging = /(?:[\s,]+(?:and|or|but|if so|so|then|y|o|pero|que|which))+$/i;
  return cut !== undefined ? text.slice(0, cut).replace(hanging, '') : clipAtWord(text, max);
}

/** A fenced block (a file's new content, a command, a log): what the agent wrote there states no change. */
const FENCED = /^(\x60{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm;

/** The agent's sentences in the episode, tool lines and fenced blocks left out. */
export function agentSentences(messages: readonly LogbookChunkMessage[]): string[] {
  return messages.flatMap((m) =>
    m.role === 'assistant'
      ? proseSentences(
          withoutToolLines(m.text)
            .replace(FENCED, '')
            .replace(/[\u2018\u2019]/g, "'"),
        ).map(tidy)
      : [],
  );
}

/**
 * A sentence that is no change made: code, a to-do still open, a plan or a step heading ("Agregar …",
 * "正在…", "Esto debería …", "we need …"), or a finding listed ("以下のような問題").
 */
const PLANNED = new RegExp(
  String.raw`^(?:\/\/|#|\$ |[{}<]|[\w.]+\s*[=(]|\[[ -]\])|[;{]$|` +
    String.raw`^(?:para (?:el|la|los|las|que|esto)|this should|that should|necesitamos|el problema ` +
    String.raw`(?:puede|podría)|(?:agregar|añadir|eliminar|quitar|hacer|mantener|ajustar|establecer|corregir|` +
    String.raw`cambiar|mover|crear|actualizar|modificar|usar|implementar|asegurar|mejorar|aplicar|definir|` +
    String.raw`reducir|aumentar)\b)|\b(?:necesitamos|we need|deber[ií]an?|voy a|vamos a|i'll|i will|i'm going to)\b|` +
    String.raw`^(?:this|that|these|the|it)\b[^,;]{0,30}\bshould (?:now )?(?:fix|resolve|solve|work|address)\b|` +
    '^(?:正在|我将|我会|接下来|让我|我来|下面|现在(?:我|让)|你可以|您可以|次に|まず|これから)|以下の(?:ような)?問題',
  'iu',
);

export const statement = (s: string): boolean =>
  !/[?？]$/.test(s) &&
  !PLANNED.test(s) &&
  (!/[:：]$/.test(s) || (changes(s) && s.split(/\s+/).length >= 6)) &&
  !NO_CHANGE_SAID.test(s) &&
  (!NARRATION.test(s) || changes(s)) &&
  !TENTATIVE.test(s) &&
  s.split(/\s+/).length <= 45;

/** A summary's label before what it lists ("Changes:", "변경 사항:", "修改内容：", "Cambios:"). */
const SUMMARY_LABEL = new RegExp(
  String.raw`^(?:changes?|summary|what changed|progress update|checkpoint|done|fatto|listo|hecho|готово|` +
    String.raw`변경 ?사항|수정 ?내용|修改内容|变更|変更(?:内容|点)|修正内容|cambios?|resumen)\s*[:：]\s*`,
  'i',
);

/**
 * What the agent says it changed, the sentences nearest the request first; none when it states nothing.
 * Unless `loose` (a bug's fix), a change must name code or share a word with the request.
 */
export function doneOf(messages: readonly LogbookChunkMessage[], request: string, loose = false): string | undefined {
  const wanted = termSet(request);
  const last = [...messages]
    .reverse()
    .find((m) => m.role === 'assistant' && withoutToolLines(m.text).trim().length > 15);
  const pool = (last ? agentSentences([last]) : []).map((s) =>
    s.replace(SUMMARY_LABEL, '').replace(/^(?:\[x\]|\u2705)\s*/i, ''),
  );
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
  return clipAtClause(text.replace(/[:：]$/, ''), DONE_MAX);
}

/** The logbook schema's limit on an event's content, and the least room a request keeps in it. */
const EVENT_MAX = 300;
const REQUEST_MIN = 110;

/** "request → change (in files)" within an event's 300 characters: the request gives up the room the change needs. */
export function decisionText(request: string, done: string, files: string[]): string {
  // Files are the first to give up room: one named is enough to find the rest, and the words come first.
  const fits = (note: string) => request.length + done.length + note.length + 3 <= EVENT_MAX;
  const note = [filesNote(files, `${request} ${done}`), filesNote(files.slice(0, 1), done)].find(fits) ?? '';
  const change = clipAtClause(done, EVENT_MAX - Math.min(request.length, REQUEST_MIN) - note.length - 3);
  const asked = clipAtClause(request, EVENT_MAX - change.length - note.length - 3);
  return `${asked} → ${change}${note}`;
}

/** A cause given as a label ("원인: …", "Root cause: …", "原因：…", "Causa: …"). */
export const CAUSE_LABEL = /^(?:root cause|cause|causa|原因|원인|根本原因)\s*[:：]/i;

/** A finding that there is no problem ("YAML 문제는 없습니다", "no hay problema", "is not the issue"). */
const NO_PROBLEM =
  /\b(?:no (?:hay|es|era)|is not|isn't|was not|wasn't|there's no|there is no)\b|없습니다|없어요|没有问题|不是问题|ありません|ではない/i;

/** The cause the agent states in the episode ("The problem is …", "原因是 …"), when it names something. */
export function causeOf(messages: readonly LogbookChunkMessage[]): string | undefined {
  const cause = agentSentences(messages).find(
    (s) =>
      (BUG_CUE.test(s) || CAUSE_LABEL.test(s)) &&
      statement(s) &&
      (isNonLatin(s) || CONCRETE.test(s)) &&
      !NO_PROBLEM.test(s),
  );
  return cause ? clipAtWord(cause, 140) : undefined;
}

/**
 * The agent's diagnosis of a failure the user only pointed at ("porque da error"): its first cause sentence,
 * with the next one when only that one names the code.
 */
export function diagnosisOf(messages: readonly LogbookChunkMessage[]): string | undefined {
  const sentences = agentSentences(messages);
  const at = sentences.findIndex((s) => (BUG_CUE.test(s) || CAUSE_LABEL.test(s)) && statement(s));
  const [said, next] = [sentences[at], sentences[at + 1]];
  if (!said) return undefined;
  if (isNonLatin(said) || CONCRETE.test(said)) return clipAtClause(said, 160);
  return next && CONCRETE.test(next) && statement(next) ? clipAtClause(`${said} ${next}`, 220) : undefined;
}

/** The first line of code pasted right after "we get this error:" (any wording ending in "error:"). */
export function pastedError(text: string): string | undefined {
  const m = /(?:error|errors|错误|报错|エラー|에러|오류)[^\n]{0,20}[:：]?\s*\n\x60{3}[^\n]*\n([^\n]{8,200})/i.exec(
    text,
  );
  return m?.[1]?.trim();
}

/** The user's words about a failure with the error they pasted, when the words do not quote it. */
export function withError(request: string | undefined, error: string | undefined): string | undefined {
  if (!error || request?.includes(error.slice(0, 30))) return request ?? error;
  // "For the code present, we get this error:" only introduces the error.
  if (!request || /\b(?:i|we) (?:get|got|have|see)\b|\b(?:following|below)\b|^errors?\b/i.test(request)) return error;
  const words = request.replace(/\s*(?:[,:：]|(?:with|con) (?:this|este) error)[\s\S]*$/i, '');
  const intro = /\b(?:getting|seeing)\b.{0,20}\berror\b/i.test(words);
  return !intro && words.length <= 70 && !/[?？]/.test(words) ? `${words}: ${error}` : error;
}

/** The files an episode edited, as their last two path segments, when its text does not already name them. */
export function filesNote(files: string[], text: string): string {
  const unnamed = files.filter((f) => !names(text, f)).map(shortPath);
  return unnamed.length > 0 ? ` (in ${[...new Set(unnamed)].slice(0, 3).join(', ')})` : '';
}
