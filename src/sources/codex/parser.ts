// Owns parsing Codex CLI rollouts handed over as lines (the adapter is a LineAdapter: generation-3 rollouts
// grow by appends). Generation 3 (`{timestamp, type, payload}`) and 2 (header + bare items + state lines) are
// parsed line by line; a generation-1 `.json` document is parsed from its joined lines (see legacy-json.ts).
// Statelessness across calls: message keys are `line:<n>`, results link to calls by toolCallId, and a chunk
// without its session_meta takes the session id from the file name (`rollout-<ts>-<uuid>.jsonl`).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ParseOutput, ParsedMessage, ParsedSession, TokenUsage } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { LineRecord, ParseContext } from '../types.js';
import { detectForkReplay } from './fork-replay.js';
import type { ItemContext, ItemResult } from './items.js';
import { convertResponseItem, cwdFromEnvironmentContext } from './items.js';
import { parseCodexJsonDocument } from './legacy-json.js';
import { isArchivedPath, isHistoryFileName, sessionIdFromFileName } from './paths.js';
import type { CodexLine, Json } from './schema.js';
import { classifyCodexLine, declaredParent, num, obj, str } from './schema.js';

export const HISTORY_REASON = 'Codex prompt log (history.jsonl): prompts only, no replies; not a session';

interface Parsed {
  line: number;
  record: CodexLine;
}

function parseLine(text: string): CodexLine {
  try {
    return classifyCodexLine(JSON.parse(text) as unknown);
  } catch {
    return { kind: 'malformed', reason: 'invalid JSON' };
  }
}

function isJsonDocument(lines: LineRecord[], path: string): boolean {
  if (path.endsWith('.json')) return true;
  const first = lines[0];
  return first !== undefined && first.line === 1 && first.text.trim() === '{';
}

function sessionFromHeader(first: Parsed | undefined, path: string): { session: ParsedSession; ownMeta?: Json } {
  const fallback = sessionIdFromFileName(path) ?? basename(path).replace(/\.jsonl?$/, '');
  const session: ParsedSession = { key: fallback, agent: 'codex' };
  // Meta is only set when known: the store replaces a session's meta with any non-null one, and an appended
  // chunk (no header) must not wipe what the first chunk recorded.
  const meta: Json = {};
  if (isArchivedPath(path)) meta.archived = true;
  if (Object.keys(meta).length > 0) session.meta = meta;
  const rec = first?.record;
  if (rec?.kind === 'envelope' && rec.type === 'session_meta') {
    const p = rec.payload;
    session.key = str(p.id) ?? fallback;
    const cwd = str(p.cwd);
    if (cwd) session.project = cwd;
    const git = obj(p.git);
    const branch = str(git?.branch);
    if (branch) session.gitBranch = branch;
    const parent = declaredParent(p);
    if (parent) Object.assign(session, { parentKey: parent.key, relation: parent.relation });
    Object.assign(meta, { generation: 3, startedAt: str(p.timestamp) ?? rec.timestamp });
    for (const [from, to] of [
      ['cli_version', 'cliVersion'],
      ['originator', 'originator'],
      ['model_provider', 'modelProvider'],
    ] as const) {
      if (str(p[from])) meta[to] = p[from];
    }
    if (p.source !== undefined) meta.source = p.source;
    if (str(git?.commit_hash)) meta.gitCommit = git?.commit_hash;
    if (str(git?.repository_url)) meta.repositoryUrl = git?.repository_url;
    if (parent?.relation === 'fork' && str(p.forked_from_id)) meta.forkedFromId = p.forked_from_id;
    session.meta = meta;
    return { session, ownMeta: p };
  }
  if (rec?.kind === 'legacy_header') {
    session.key = rec.id;
    Object.assign(meta, { generation: 2, startedAt: rec.timestamp });
    const branch = str(obj(rec.record.git)?.branch);
    if (branch) session.gitBranch = branch;
    session.meta = meta;
  }
  return { session };
}

/**
 * Generation 1 is one JSON document, not JSONL: its closing `}` has no newline, so the ingest engine never
 * hands it over, and big files arrive in several batches. The batch holding line 1 therefore parses the whole
 * document from disk (falling back to the joined lines); later batches of the same document add nothing.
 */
function parseJsonDocumentCall(lines: LineRecord[], path: string): ParseOutput {
  if (lines[0]?.line !== 1) {
    const out = emptyParseOutput();
    out.skipped['json_document:continuation'] = lines.length;
    return out;
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = lines.map((l) => l.text).join('\n');
  }
  return parseCodexJsonDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, path);
}

export function parseCodexLines(lines: LineRecord[], ctx: ParseContext): ParseOutput {
  const out = emptyParseOutput();
  if (isHistoryFileName(basename(ctx.path))) {
    out.notSession = HISTORY_REASON;
    return out;
  }
  if (isJsonDocument(lines, ctx.path)) return parseJsonDocumentCall(lines, ctx.path);

  const parsed: Parsed[] = [];
  for (const l of lines) if (l.text.trim() !== '') parsed.push({ line: l.line, record: parseLine(l.text) });
  const first = parsed[0]?.line === 1 ? parsed[0] : undefined;
  const { session, ownMeta } = sessionFromHeader(first, ctx.path);
  const hasHeader = first?.record.kind === 'legacy_header' || ownMeta !== undefined;
  const sessionKey = session.key;
  out.sessions.push(session);
  const replay = detectForkReplay(parsed, session, ownMeta);
  const skip = (type: string): void => {
    out.skipped[type] = (out.skipped[type] ?? 0) + 1;
  };

  const toolNames = new Map<string, string>();
  const seenUsage = new Set<string>();
  let model: string | undefined;
  let cwd = session.project;
  let pendingCwd: string | undefined;
  let lastAssistant: ParsedMessage | undefined;
  let pendingUsage: { usage: TokenUsage; line: number; timestamp?: string } | undefined;

  // The parent session a line being converted seems to copy (see fork-replay.ts), else undefined.
  let replayOf: string | undefined;
  const emit = (m: ParsedMessage): void => {
    if (replayOf !== undefined) m.replayOf = replayOf;
    if (pendingCwd !== undefined) {
      m.meta = { ...m.meta, cwd: pendingCwd };
      pendingCwd = undefined;
    }
    if (m.role === 'assistant') {
      if (pendingUsage) {
        m.usage = pendingUsage.usage;
        pendingUsage = undefined;
        lastAssistant = undefined;
      } else lastAssistant = m;
    }
    if (hasHeader && session.project === undefined && m.blocks[0]?.noise === 'environment_context') {
      const envCwd = cwdFromEnvironmentContext(m.blocks[0].text);
      if (envCwd) session.project = cwd = envCwd;
    }
    out.messages.push(m);
  };
  const fromItem = (item: Json, line: number, timestamp?: string): void => {
    const ictx: ItemContext = { sessionKey, key: `line:${line}`, line, toolNames };
    if (timestamp) ictx.timestamp = timestamp;
    if (model) ictx.model = model;
    const result: ItemResult = convertResponseItem(item, ictx);
    if ('skipped' in result) skip(result.skipped);
    else emit(result.message);
  };

  for (const { line, record } of parsed) {
    if (line === 1 && hasHeader) continue;
    // Replayed items are kept, marked: only the ingest can tell whether the parent's copy is stored.
    const replaying = replay.has(line) ? session.parentKey : undefined;
    if (replayOf !== undefined && replaying === undefined) {
      // The fork's own items begin: usage counted in the copy is the parent's.
      pendingUsage = undefined;
      lastAssistant = undefined;
    }
    replayOf = replaying;
    switch (record.kind) {
      case 'malformed':
        out.malformed.push({ line, reason: record.reason });
        break;
      case 'unknown':
        skip(record.type);
        break;
      case 'legacy_state':
        skip('record_type:state');
        break;
      case 'legacy_header':
        skip('legacy_header:extra');
        break;
      case 'bare_item':
        fromItem(record.item, line);
        break;
      case 'envelope': {
        const p = record.payload;
        const ts = record.timestamp;
        if (record.type === 'response_item') fromItem(p, line, ts);
        else if (record.type === 'turn_context') {
          if (str(p.model)) model = str(p.model);
          const next = str(p.cwd);
          if (next !== undefined && cwd !== undefined && next !== cwd) pendingCwd = next;
          if (next !== undefined) cwd = next;
        } else if (record.type === 'compacted') {
          const text = str(p.message);
          // A replacement history alone repeats earlier items (remote compaction keeps its summary encrypted).
          if (!text)
            skip(Array.isArray(p.replacement_history) ? 'compacted:replacement_history_only' : 'compacted:empty');
          else
            emit({
              sessionKey,
              key: `line:${line}`,
              role: 'system',
              kind: 'compaction',
              line,
              ...(ts ? { timestamp: ts } : {}),
              blocks: [{ kind: 'summary', text }],
            });
        } else if (record.type === 'event_msg') {
          const evType = str(p.type) ?? 'untyped';
          if (evType === 'token_count') {
            const info = obj(p.info);
            const last = obj(info?.last_token_usage);
            if (!last) {
              skip('event_msg:token_count:no_info');
              break;
            }
            const total = num(obj(info?.total_token_usage)?.total_tokens);
            const apiMessageId = `${sessionKey}:tc:${total ?? `line${line}`}`;
            if (seenUsage.has(apiMessageId)) {
              skip('event_msg:token_count:repeat');
              break;
            }
            seenUsage.add(apiMessageId);
            const input = num(last.input_tokens) ?? 0;
            const cached = num(last.cached_input_tokens) ?? 0;
            const usage: TokenUsage = {
              apiMessageId,
              inputTokens: Math.max(0, input - cached),
              outputTokens: num(last.output_tokens) ?? 0,
              cacheReadTokens: cached,
              cacheWriteTokens: 0,
            };
            if (model) usage.model = model;
            if (lastAssistant && !lastAssistant.usage) {
              lastAssistant.usage = usage;
              lastAssistant = undefined;
            } else pendingUsage = { usage, line, ...(ts ? { timestamp: ts } : {}) };
          } else if (evType === 'error') {
            const text = str(p.message) ?? 'error';
            emit({
              sessionKey,
              key: `line:${line}`,
              role: 'system',
              kind: 'error',
              line,
              ...(ts ? { timestamp: ts } : {}),
              blocks: [{ kind: 'system', text }],
            });
          } else {
            // A /model change made between turns: replies after it use the new model.
            if (evType === 'thread_settings_applied') model = str(obj(p.thread_settings)?.model) ?? model;
            skip(`event_msg:${evType}`);
          }
        } else skip(`${record.type}:extra`);
        break;
      }
    }
  }
  if (pendingUsage) {
    // Usage with no assistant item left in this call (chunk boundary): kept on a block-less carrier message.
    const { usage, line, timestamp } = pendingUsage;
    out.messages.push({
      sessionKey,
      key: `line:${line}`,
      role: 'assistant',
      kind: 'system',
      line,
      blocks: [],
      usage,
      ...(timestamp ? { timestamp } : {}),
      meta: { usageOnly: true },
    });
  }
  return out;
}
