// Owns parsing one SpecStory Markdown export into a session: the `# Title (time)` header, then turns
// opened by `_**User**_` / `_**Assistant**_` / `_**Agent (model m, mode x)**_` lines (later versions
// date each user turn). `<tool-use data-tool-name="…">` blocks become tool calls named by the tool, with
// their summary as text; `<think>` blocks become thinking. Messages are keyed by turn number.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Block, ParsedMessage, ParseOutput, ParsedSession } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { EARLY_HEADER, projectOf } from './paths.js';
import { BLOCK_OPEN, isoOf, LABEL_TIME, SESSION_ID, THINK, TITLE, TOOL_USE, TURN } from './schema.js';

/** Text without the `---` separators SpecStory puts between the chunks of a turn. */
function clean(text: string): string {
  return text
    .replace(/^\s*---\s*$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function summaryOf(html: string): string {
  const summary = (/<summary>([\s\S]*?)<\/summary>/.exec(html)?.[1] ?? html)
    .replace(/<[^>]+>/g, '')
    .replace(/\*\*/g, '')
    .trim();
  const key = summary.includes('\u2022') ? undefined : keyInputOf(html);
  return key ? `${summary} \u2022 ${key}` : summary;
}

/**
 * What a Claude Code export's tool block acted on, which its summary leaves out: the command or path on its
 * own line in backticks, or the file its result says was written.
 */
function keyInputOf(html: string): string | undefined {
  const body = html.slice(html.indexOf('</summary>') + 1);
  const written = /(?:File created successfully at: |The file )(\S+?)(?: has been updated|\s|$)/m.exec(body)?.[1];
  const quoted = /^\s*\x60([^\x60\n]+)\x60\s*$/m.exec(body.split(/^\x60{3}/m)[0] ?? '')?.[1];
  return (quoted ?? written)?.trim();
}

/** An assistant turn: thinking, tool uses (as calls) and the text around them, in order. */
function assistantBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  const marks: { at: number; end: number; block: Block }[] = [];
  for (const m of body.matchAll(THINK)) {
    const text = clean((m[1] ?? '').replace(/<[^>]+>/g, ''));
    if (text) marks.push({ at: m.index, end: m.index + m[0].length, block: { kind: 'thinking', text } });
  }
  for (const m of body.matchAll(TOOL_USE)) {
    const name = m[1] as string;
    const text = summaryOf(m[2] ?? '');
    marks.push({ at: m.index, end: m.index + m[0].length, block: { kind: 'tool_call', text, toolName: name } });
  }
  marks.sort((a, b) => a.at - b.at);
  let from = 0;
  for (const mark of marks) {
    if (mark.at < from) continue;
    const text = clean(body.slice(from, mark.at));
    if (text) blocks.push({ kind: 'text', text });
    blocks.push(mark.block);
    from = mark.end;
  }
  const rest = clean(body.slice(from));
  if (rest) blocks.push({ kind: 'text', text: rest });
  return blocks;
}

export function parseSpecStoryFile(path: string): ParseOutput {
  const out = emptyParseOutput();
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return { ...out, notSession: `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  const lines = text.split(/\r?\n/);
  const key = SESSION_ID.exec(text.slice(0, 600))?.[1] ?? basename(path, '.md');
  const session: ParsedSession = { key, agent: 'specstory' };
  const project = projectOf(path);
  if (project) session.project = project;
  const editor = /<!-- (\w+) Session /.exec(text.slice(0, 600))?.[1];
  session.meta = { export: basename(path), ...(editor ? { editor } : {}) };
  let started: string | undefined;
  const turns: { role: 'user' | 'assistant'; label?: string; line: number; body: string[] }[] = [];
  // Turn markers inside a tool's output or a fenced block (an export that prints an export) are text.
  // v2.1.0 closes a block as `</details></tool-use>`, and fences in tool output or thinking may stay open.
  let closing: RegExp | null = null;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!inFence && !closing) closing = BLOCK_OPEN.find(([open]) => open.test(line))?.[1] ?? null;
    else if (!closing && /^\s*```/.test(line)) inFence = !inFence;
    const turn = closing || inFence ? null : TURN.exec(line);
    if (closing?.test(line)) closing = null;
    if (turn) {
      turns.push({ role: turn[1] === 'User' ? 'user' : 'assistant', label: turn[2], line: i + 1, body: [] });
      continue;
    }
    const last = turns[turns.length - 1];
    if (last) last.body.push(line);
    else if (session.title === undefined && !EARLY_HEADER.test(line)) {
      const title = TITLE.exec(line);
      if (title?.[1]) {
        session.title = title[1];
        // v2.1.0 titles an untitled session by its start time alone (`# 2026-06-10 12:51:06Z`).
        started = isoOf(title[2]) ?? isoOf(title[1]);
      }
    }
  }
  if (turns.length === 0) return { ...emptyParseOutput(), notSession: 'SpecStory export without any turn' };
  const models = new Set<string>();
  let lastTime = started;
  turns.forEach((turn, n) => {
    const body = turn.body.join('\n');
    const blocks: Block[] = turn.role === 'user' ? [{ kind: 'text', text: clean(body) }] : assistantBlocks(body);
    const kept = blocks.filter((b) => b.text !== '' || b.kind === 'tool_call');
    if (kept.length === 0) {
      out.skipped[`${turn.role}:empty`] = (out.skipped[`${turn.role}:empty`] ?? 0) + 1;
      return;
    }
    const message: ParsedMessage = {
      sessionKey: key,
      key: `t:${n + 1}`,
      role: turn.role,
      kind: turn.role === 'user' ? 'prompt' : 'response',
      line: turn.line,
      blocks: kept,
    };
    // Users' turns carry their time in later versions, and v2.1 agent lines too ("deepseek-v4-pro 2026-05-05
    // 08:06:47Z"); a reply without one takes the time of the turn it answers.
    const stamp = LABEL_TIME.exec(turn.label ?? '');
    const time = (turn.role === 'user' ? isoOf(turn.label) : isoOf(stamp?.[1])) ?? lastTime;
    if (time) message.timestamp = lastTime = time;
    const named =
      /model ([^,)]+)/.exec(turn.label ?? '')?.[1] ?? (stamp ? turn.label?.slice(0, stamp.index) : undefined);
    const model = turn.role === 'assistant' ? named?.trim() || undefined : undefined;
    if (model && model !== 'default') {
      message.model = model;
      models.add(model);
    }
    out.messages.push(message);
  });
  if (models.size > 0) session.meta = { ...session.meta, models: [...models] };
  out.sessions.push(session);
  return out;
}
