// Owns pairing a failure with its fix: the files the agent edited after it, the evidence that the edit
// fixed it (the file the failure names was edited, the failing command passed later, or the user said it
// works), and the fix as a newcomer reads it: what changed, in which file.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { CONCRETE, NARRATION, STILL_FAILING, TENTATIVE } from './logbook-cues.js';
import { CALL_LINE, editsCode, FIX_WINDOW, isEditTool, withoutToolLines } from './logbook-evidence.js';
import { fileNamed, rewrites } from './logbook-files.js';
import { clipAtWord, proseSentences, tidy } from './segments.js';

/** The user saying the fix worked, in the five languages (a negated one is STILL_FAILING or NOT_WORKING). */
export const WORKS = new RegExp(
  String.raw`\b(?:it works|works now|working now|(?:that|this|it) worked|(?:that|this) fixed it|works (?:great|fine|` +
    String.raw`perfectly)|it's working|problem solved|no more errors?|(?:ya )?funciona(?: bien)?|ya sirve|` +
    String.raw`(?:ahora|ya) (?:carga|anda)|now it (?:loads|shows))\b|` +
    '好了|可以了|解决了|成功了|没问题了|正常了|됐어|됐습니다|잘 ?(?:돼|되네|됩니다|동작)|해결됐|動きました|動いた|直りました|' +
    '直った|うまくいきました|うまくいった|いけた|いけました|できました|解決しました|it.?s working now|' +
    String.raw`it works now|working now`,
  'i',
);
export const NOT_WORKING = new RegExp(
  String.raw`\b(?:no funciona|(?:doesn't|does not|did not|didn't) (?:work|solve|fix)|not work\w*|isn't working)\b|` +
    '不行|안 ?[돼되]|動かない',
  'i',
);

/** A sentence that states a change made (what a fix did), in the five languages. */
export const CHANGE_STATED = new RegExp(
  String.raw`^(?:added|changed|replaced|wrapped|removed|moved|renamed|updated|fixed|switched|set|made|passed|` +
    String.raw`converted|corrected|installed|created|declared|defined|initiali[sz]ed|imported|exported|guarded|` +
    String.raw`escaped|quoted|bumped|pinned|reverted|restored|deleted|enabled|disabled|configured|registered|` +
    String.raw`inserted|rewrote|rewritten|implemented|introduced|extracted|upgraded|downgraded|migrated|` +
    String.raw`refactored|simplified|adjusted|increased|reduced|centered|aligned)\b|` +
    String.raw`\b(?:i|we)(?:'ve| have)? (?:added|changed|replaced|wrapped|removed|moved|renamed|updated|fixed|` +
    String.raw`switched|corrected|installed|made|` +
    String.raw`rewritten|rewrote|created|implemented|deleted|set|upgraded|migrated|refactored|adjusted)\b|` +
    String.raw`\bnow (?:uses|passes|returns|checks|` +
    String.raw`handles|wraps|runs|includes|calls|reads|writes)\b|\bthe fix (?:is|was)\b|\bfix (?:this|it|that) by\b|` +
    '已(?:将|经|把)|改为|改成|添加了|修改了|修复了|升级了|更新了|调整了|优化了|把.{1,30}(?:改|换)|' +
    '추가했|변경했|수정했|바꿨|고쳤|업그레이드했|구현했|생성했|삭제했|조정했|' +
    '追加しました|変更しました|修正しました|更新しました|実装しました|作成しました|削除しました|調整しました|置き換え|' +
    String.raw`\b(?:cambié|agregué|añadí|modifiqué|reemplacé|corregí|actualicé|implementé|eliminé|ajusté|creé|` +
    String.raw`configuré|registré|` +
    String.raw`moví|he (?:cambiado|agregado|añadido|modificado|actualizado|implementado|eliminado|ajustado|` +
    'corregido|reemplazado))',
  'i',
);

export interface Failure {
  /** The error text (a tool's error line, or the error the user pasted). */
  error: string;
  tool?: string;
  command?: string;
  /** Other text naming what failed (the agent's diagnosis): files it names count as the failing ones. */
  mentions?: string;
  /** Code the failure names (identifiers in a diagnosis): an edit whose changed lines hold one fixes it. */
  terms?: string[];
  /** The failure's own message may hold its fix (a diagnosis followed by the edit). */
  fixedInPlace?: boolean;
}

export interface Fix {
  /** Files edited between the failure and the evidence, in order. */
  files: string[];
  /** The agent's sentence stating the change, when it states one. */
  said?: string;
  /** The failing command run again in another form, the evidence that passed. */
  retried?: string;
}

/** The path an edit call's key input names ("Tool use: write • Edit file: /a/b.ts", or the path alone). */
function pathOf(arg: string): string | undefined {
  const tokens = arg.split(/\s+/).filter((t) => /[\w-]\.[A-Za-z0-9]{1,10}$|[/\\][^/\\]+$/.test(t));
  return tokens[tokens.length - 1]?.replace(/^["'\x60]|["'\x60,]$/g, '');
}

/** The files a message edits: edit calls' paths, apply_patch headers and file-labelled code fences. */
export function editedFiles(message: LogbookChunkMessage): string[] {
  if (message.role === 'user') return [];
  const files: string[] = [];
  let pathLine: string | undefined;
  let previous = '';
  let fenced = false;
  for (const line of message.text.split('\n')) {
    const call = CALL_LINE.exec(line);
    // Aider names the file on the line above the fence that opens its SEARCH block, or the whole new file.
    if (/^[\w./\\-]+\.\w{1,10}$/.test(line.trim())) pathLine = line.trim();
    const fence = /^\x60{3,}/.test(line);
    const whole = fence && !fenced && /^\x60{3,}\s*$/.test(line) && pathLine === previous.trim();
    if (fence) fenced = !fenced;
    if ((/^<{7} SEARCH/.test(line) || whole) && pathLine && !files.includes(pathLine)) files.push(pathLine);
    previous = line;
    const file = call
      ? isEditTool(call[1]!)
        ? pathOf(call[2]!)
        : undefined
      : (/^\*\*\* (?:Update|Add) File: (\S+)/.exec(line)?.[1] ?? /^\x60{3}\w+:(\S+)\s*$/.exec(line)?.[1]);
    if (file && !files.includes(file)) files.push(file);
  }
  return files;
}

const base = (file: string): string => file.split(/[/\\]/).pop() ?? file;

/** True when the text names the file (by its base name, at least three characters). */
export function names(text: string, file: string): boolean {
  const b = base(file);
  return b.length >= 3 && text.includes(b);
}

/** What a command ran: without `cd DIR &&`, `source F &&`, `export V=… &&`, pipes and the program's folder. */
function ran(command: string): string {
  return command
    .replace(/^(?:(?:cd|source|\.|export) \S+ && )+/, '')
    .replace(/\s*(?:2>&1|\|.*)$/, '')
    .replace(/^\S*\//, '')
    .trim();
}

const steps = (command: string): string[] =>
  command
    .split(/\s*(?:&&|\|\||;)\s*/)
    .map(ran)
    .filter(Boolean);

/** True when `later` runs again what failed in `failed` (its last step, as the first three words). */
function sameCommand(failed: string, later: string): boolean {
  const key = (step: string): string => step.split(/\s+/).slice(0, 3).join(' ');
  const last = steps(failed)
    .filter((s) => !/^(?:cd|source|export)\b/.test(s))
    .pop();
  return last !== undefined && steps(later).some((s) => key(s) === key(last));
}

/** The agent's sentence that states the change it made (not a plan, a hedge or a question). */
function changeSaid(message: LogbookChunkMessage): string | undefined {
  if (message.role !== 'assistant') return undefined;
  return proseSentences(withoutToolLines(message.text).replace(/[\u2018\u2019]/g, "'"))
    .map(tidy)
    .find(
      (s) =>
        CHANGE_STATED.test(s) &&
        !/[?？]$/.test(s) &&
        !NARRATION.test(s) &&
        !TENTATIVE.test(s) &&
        // "Fixed." names no change: a sentence must name code, a file, or say more.
        (CONCRETE.test(s) || s.length >= 30) &&
        s.split(/\s+/).length <= 40,
    );
}

/**
 * The fix of the failure at message `at`, with evidence: an edit to a file the failure names, the failing
 * command passing after an edit, or the user saying it works after one. None when the user says it still
 * fails first, or when no edit with evidence follows within FIX_WINDOW messages.
 */
export function fixOf(messages: readonly LogbookChunkMessage[], at: number, failure: Failure): Fix | undefined {
  // The failing command is left out: a read or write of a file names that file without it being at fault.
  const named = [failure.error, failure.mentions ?? ''].join('\n');
  const files: string[] = [];
  let said: string | undefined;
  let evidence = false;
  let rerun = false;
  let retried: string | undefined;
  let i = failure.fixedInPlace ? at : at + 1;
  for (; i < Math.min(messages.length, at + 1 + FIX_WINDOW) && !evidence; i++) {
    const m = messages[i]!;
    if (m.role === 'user') {
      if (STILL_FAILING.test(m.text) || NOT_WORKING.test(m.text)) return undefined;
      if (files.length > 0 && WORKS.test(m.text)) evidence = true;
      // The user's next turn ends the attempt: a fix not borne out by then is not shown.
      break;
    }
    const edited = editedFiles(m);
    said ??= changeSaid(m);
    if (edited.length > 0 && failure.terms?.some((t) => changedLines(m.text).includes(t))) evidence = true;
    for (const f of edited) {
      if (!files.includes(f)) files.push(f);
      if (names(named, f)) evidence = true;
    }
    if (!failure.tool || !failure.command) continue;
    for (const line of m.text.split('\n')) {
      const call = CALL_LINE.exec(line);
      // A shell command that rewrites the file the error names (a script, sed -i, a redirect) edits it.
      const rewritten = call && call[1] === failure.tool ? fileNamed(failure.error) : undefined;
      if (call && rewritten && call[2] !== failure.command && rewrites(call[2]!, failure.error)) {
        said ??= `ran \x60${clipAtWord(call[2]!, 140)}\x60`;
        if (!files.includes(rewritten)) files.push(rewritten);
        evidence = true;
      }
      if (call && i > at && call[1] === failure.tool && sameCommand(call[2]!, failure.command)) {
        rerun = true;
        // Run again in another form ("-m … -m …" for a heredoc): the new form is what changed.
        if (call[2] !== failure.command && files.length === 0) retried = call[2];
      } else if (call && call[1] === failure.tool) rerun = false;
      const result = line.startsWith(`\u2190 ${failure.tool}`);
      if (rerun && result) evidence = !line.startsWith(`\u2190 ${failure.tool} FAILED`) && !m.failed;
      if (result) rerun = false;
    }
  }
  // The same command passing later is evidence enough; what changed is then only what the agent said.
  if (!evidence) return undefined;
  // A piped run ("… | tail -5") may pass while the command failed: a later form that passes is the fix,
  // one that fails says the piped one did not fix it.
  let pending: string | undefined;
  const piped = retried !== undefined && /\|\s*(?:tail|head|grep)\b/.test(retried);
  for (; piped && i < messages.length && messages[i]!.role !== 'user'; i++)
    for (const line of messages[i]!.text.split('\n')) {
      const call = CALL_LINE.exec(line);
      if (call && call[1] === failure.tool && failure.command && sameCommand(call[2]!, failure.command))
        pending = call[2];
      else if (pending && line.startsWith(`\u2190 ${failure.tool}`)) {
        if (line.startsWith(`\u2190 ${failure.tool} FAILED`)) return undefined;
        retried = pending;
        pending = undefined;
      }
    }
  return { files, said, ...(retried ? { retried } : {}) };
}

/** The changed lines of an edit shown in a message: compact diff lines and SEARCH/REPLACE blocks. */
function changedLines(text: string): string {
  const diff = text.split('\n').filter((l) => /^│[-+]/.test(l));
  const blocks = text.match(/^<{7} SEARCH[\s\S]*?^>{7} REPLACE/gm) ?? [];
  return [...diff, ...blocks].join('\n');
}

/**
 * An agent's diagnosis answered by an edit in the same turn (before the user's next message), which that
 * message does not contradict: the evidence a chat export without tool results can give.
 */
export function editedInTurn(
  messages: readonly LogbookChunkMessage[],
  at: number,
  edits: (m: LogbookChunkMessage) => boolean,
): boolean {
  let edited = false;
  for (let i = at; i < Math.min(messages.length, at + 1 + FIX_WINDOW); i++) {
    const m = messages[i]!;
    if (m.role === 'user') return edited && !STILL_FAILING.test(m.text) && !NOT_WORKING.test(m.text);
    edited ||= edits(m);
  }
  return edited;
}

/** The user asking for a fix or accepting one ("fix them", "수정해줘", "修复一下", "直して", "arréglalo"). */
const FIX_REQUEST = new RegExp(
  String.raw`^(?:yes|ok(?:ay)?|sure|go ahead|do it|please)\b|\b(?:fix|address|resolve|apply)\b|` +
    String.raw`수정|고쳐|반영|진행|修复|修改|改一下|解决|直して|修正して|対応して|\b(?:arregla|corrige|aplica)`,
  'i',
);

/**
 * True when the agent's finding at `at` was then fixed: the user's next turn asks for the fix (or accepts
 * it) and an edit follows before the turn after.
 */
export function fixedAfter(messages: readonly LogbookChunkMessage[], at: number): boolean {
  const next = messages.findIndex((m, i) => i > at && m.role === 'user');
  if (next < 0 || !FIX_REQUEST.test(messages[next]!.text.trim().slice(0, 300))) return false;
  for (let i = next + 1; i < messages.length && messages[i]!.role !== 'user'; i++)
    if (editedFiles(messages[i]!).length > 0 || /^(?:│[-+]|<{7} SEARCH)/m.test(messages[i]!.text)) return true;
  return false;
}

/** A path short enough to read: its last two segments. */
export const shortPath = (file: string): string => file.split(/[/\\]/).slice(-2).join('/');

/** The files a fix edited, as the logbook shows them: "edited a/b.ts, c/d.ts" (at most three). */
export const editedNote = (files: readonly string[]): string =>
  `edited ${[...new Set(files.map(shortPath))].slice(0, 3).join(', ')}`;

/** The fix as the logbook shows it: the change the agent stated and the files it edited. */
export function fixText(fix: Fix): string {
  const files = fix.files.slice(0, 3).map(shortPath).join(', ');
  const said = fix.said ?? (fix.retried ? `ran it as \x60${clipAtWord(fix.retried, 140)}\x60` : undefined);
  if (!said) return files ? editedNote(fix.files) : '';
  if (!files) return clipAtWord(said, 200);
  return fix.files.some((f) => names(said, f)) ? clipAtWord(said, 150) : `${clipAtWord(said, 150)} (in ${files})`;
}

/** The files the agent edited after message `at`, up to the user's next turn, as a fix ("edited a.ts"). */
export function editsAfter(messages: readonly LogbookChunkMessage[], at: number): string | undefined {
  const end = messages.findIndex((m, i) => i > at && m.role === 'user');
  const files = messages.slice(at, end < 0 ? undefined : end).flatMap(editedFiles);
  return files.length > 0 ? editedNote(files) : undefined;
}

/** A bug with its fix shown or borne out: a resolution, an edit after the cause, or the user looking back. */
export function fixShown(
  found: { resolution?: string; cause?: boolean; content: string },
  messages: readonly LogbookChunkMessage[],
  mi: number,
): boolean {
  if (found.resolution || found.cause) return true;
  const lookingBack = /\b(?:was|were)\b/i.test(found.content);
  return messages[mi]!.role === 'user' ? lookingBack : lookingBack && editedInTurn(messages, mi, editsCode);
}
