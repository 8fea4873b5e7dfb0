// Owns parsing one Aider chat history (Markdown): sessions split at `# aider chat started at`, prompts
// from consecutive `#### ` lines, `> ` output runs as system messages, everything else (with
// `<thinking-content-…>` blocks) as the assistant's reply. Message keys are the 1-based line where a
// message starts, so they stay stable when Aider appends to the file.
import { basename, dirname, resolve } from 'node:path';
import { sha1 } from '../../shared/hash.js';
import {
  emptyParseOutput,
  type Block,
  type ParseOutput,
  type ParsedMessage,
  type ParsedSession,
} from '../../shared/model.js';
import {
  MODE_LINE,
  MODEL_LINE,
  SESSION_HEADER,
  THINKING_OPEN,
  VERSION_LINE,
  classifyLine,
  outputLineText,
  promptLineText,
  startTimeToIso,
  thinkingClose,
} from './schema.js';

const INPUT_HISTORY_REASON =
  'Aider input history (.aider.input.history): a prompt log without replies, not a chat session';
const NO_CHAT_REASON = 'no Aider chat content (no "# aider chat started at" header and no "#### " prompt lines)';

interface Segment {
  /** 1-based line of the header (0 for content before the first header). */
  headerLine: number;
  startRaw?: string;
  lines: string[];
  /** 1-based line number of lines[0]. */
  firstLine: number;
}

function splitSessions(lines: string[]): Segment[] {
  const segments: Segment[] = [{ headerLine: 0, lines: [], firstLine: 1 }];
  lines.forEach((line, i) => {
    const header = SESSION_HEADER.exec(line);
    if (header) segments.push({ headerLine: i + 1, startRaw: header[1]!, lines: [], firstLine: i + 2 });
    else segments[segments.length - 1]!.lines.push(line);
  });
  return segments;
}

class SessionBuilder {
  readonly messages: ParsedMessage[] = [];
  private current: ParsedMessage | undefined;
  private textRun: string[] = [];
  model: string | undefined;
  aiderVersion: string | undefined;

  constructor(
    private readonly sessionKey: string,
    private readonly timestamp: string | undefined,
  ) {}

  /** Starts a new message of the given shape unless the current one already has it. */
  private open(kind: 'prompt' | 'output' | 'assistant', line: number, force = false): ParsedMessage {
    const want = kind === 'prompt' ? 'prompt' : kind === 'output' ? 'system' : 'response';
    if (!force && this.current && this.current.kind === want) return this.current;
    this.flushText();
    const message: ParsedMessage = {
      sessionKey: this.sessionKey,
      key: `L${line}`,
      role: kind === 'prompt' ? 'user' : kind === 'output' ? 'system' : 'assistant',
      kind: want,
      line,
      blocks: [],
    };
    if (this.timestamp) message.timestamp = this.timestamp;
    if (kind === 'assistant' && this.model) message.model = this.model;
    this.messages.push(message);
    this.current = message;
    return message;
  }

  prompt(text: string, line: number, continues: boolean): void {
    const message = this.open('prompt', line, !continues);
    const block = message.blocks[0];
    if (block) block.text += '\n' + text;
    else message.blocks.push({ kind: 'text', text });
  }

  output(text: string, line: number): void {
    const model = MODEL_LINE.exec('> ' + text);
    if (model && !this.model) this.model = model[1];
    const version = VERSION_LINE.exec('> ' + text);
    if (version && !this.aiderVersion) this.aiderVersion = version[1];
    const message = this.open('output', line);
    const block = message.blocks[0];
    if (block) block.text += '\n' + text;
    else message.blocks.push({ kind: 'system', text });
  }

  thinking(text: string, line: number, meta?: Record<string, unknown>): void {
    const block: Block = { kind: 'thinking', text };
    if (meta) block.meta = meta;
    const message = this.open('assistant', line);
    this.flushText();
    message.blocks.push(block);
  }

  text(line: string, lineNo: number): void {
    this.open('assistant', lineNo);
    this.textRun.push(line);
  }

  /** Blank lines between two output lines keep the output message open. */
  blank(): void {
    if (this.current?.kind === 'response') this.textRun.push('');
  }

  flushText(): void {
    if (!this.current || this.textRun.length === 0) return;
    const text = this.textRun.join('\n').trim();
    this.textRun = [];
    if (text !== '') this.current.blocks.push({ kind: 'text', text });
  }

  finish(): ParsedMessage[] {
    this.flushText();
    return this.messages.filter((m) => m.blocks.length > 0);
  }
}

function parseSegment(seg: Segment, key: string, timestamp: string | undefined, out: ParseOutput): ParsedMessage[] {
  const b = new SessionBuilder(key, timestamp);
  const { lines } = seg;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    const lineNo = seg.firstLine + i;
    const kind = classifyLine(line);
    if (kind === 'prompt') b.prompt(promptLineText(line), lineNo, i > 0 && classifyLine(lines[i - 1]!) === 'prompt');
    else if (kind === 'output') b.output(outputLineText(line), lineNo);
    else if (kind === 'blank') b.blank();
    else if (kind === 'thinking_open') {
      const tag = THINKING_OPEN.exec(line)![1];
      const closing = thinkingClose(tag);
      const close = lines.findIndex((l, j) => j > i && l.trim() === closing);
      const end = close === -1 ? lines.length : close;
      if (close === -1)
        out.malformed.push({
          line: lineNo,
          reason: `unclosed <${closing.slice(2, -1)}> block (kept to end of session)`,
        });
      b.thinking(
        lines
          .slice(i + 1, end)
          .join('\n')
          .trim(),
        lineNo,
        tag === undefined ? { tag: 'think' } : { tag },
      );
      i = end;
    } else if (seg.headerLine === 0 && i === 0 && MODE_LINE.test(line)) {
      out.skipped.mode_line = (out.skipped.mode_line ?? 0) + 1;
    } else b.text(line, lineNo);
  }
  const messages = b.finish();
  if (messages.length > 0) {
    const meta: Record<string, unknown> = {};
    if (seg.startRaw !== undefined) meta.startedAt = seg.startRaw;
    else meta.beforeFirstHeader = true;
    if (b.model) meta.model = b.model;
    if (b.aiderVersion) meta.aiderVersion = b.aiderVersion;
    const session: ParsedSession = { key, agent: 'aider', meta };
    out.sessions.push(session);
  }
  return messages;
}

/** Parses the text of an Aider chat history found at `path`. */
export function parseAiderHistory(text: string, path: string): ParseOutput {
  const out = emptyParseOutput();
  if (basename(path) === '.aider.input.history') return { ...out, notSession: INPUT_HISTORY_REASON };
  // CRLF files (Windows): the carriage return is not part of any line's content.
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (!lines.some((l) => SESSION_HEADER.test(l) || classifyLine(l) === 'prompt'))
    return { ...out, notSession: NO_CHAT_REASON };
  const fileId = sha1(resolve(path)).slice(0, 12);
  const project = dirname(resolve(path));
  const seen = new Map<string, number>();
  for (const seg of splitSessions(lines)) {
    let key = `${fileId}:${seg.startRaw ?? 'head'}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key = `${key}#${n}`;
    const timestamp = seg.startRaw !== undefined ? startTimeToIso(seg.startRaw) : undefined;
    const before = out.sessions.length;
    const messages = parseSegment(seg, key, timestamp, out);
    if (out.sessions.length === before) {
      if (seg.headerLine > 0) out.skipped.empty_session = (out.skipped.empty_session ?? 0) + 1;
      continue;
    }
    const session = out.sessions[out.sessions.length - 1]!;
    session.project = project;
    const firstPrompt = messages
      .find((m) => m.kind === 'prompt')
      ?.blocks[0]?.text.split('\n')[0]
      ?.trim();
    if (firstPrompt) session.title = firstPrompt.length > 120 ? firstPrompt.slice(0, 119) + '…' : firstPrompt;
    out.messages.push(...messages);
  }
  return out;
}
