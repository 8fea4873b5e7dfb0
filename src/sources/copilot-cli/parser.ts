// Owns parsing Copilot CLI files: event logs line by line (stateless across calls; messages keyed by
// event id, the session named by its file), with the title, project and branch from `workspace.yaml`;
// the oldest `history-session-state` JSON documents whole.
import { readJsonSource } from '../../shared/long-json.js';
import { dirname, join } from 'node:path';
import type { ParseOutput, ParsedSession } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { LineRecord, ParseContext } from '../types.js';
import { convertEvent, type EventContext } from './events.js';
import { parseLegacySession } from './legacy.js';
import { copilotFileKind, sessionIdOfPath, WORKSPACE_FILE } from './paths.js';
import { asEvent, isObject, readWorkspaceYaml, str } from './schema.js';

function sessionOf(path: string, kind: string | undefined): ParsedSession {
  const session: ParsedSession = {
    key: sessionIdOfPath(path),
    agent: 'copilot-cli',
    meta: { format: kind ?? 'events' },
  };
  if (kind !== 'events') return session;
  const yaml = readWorkspaceYaml(join(dirname(path), WORKSPACE_FILE));
  const title = yaml.name ?? yaml.summary;
  if (title) session.title = title;
  if (yaml.cwd) session.project = yaml.cwd;
  if (yaml.branch) session.gitBranch = yaml.branch;
  if (yaml.repository) session.meta = { ...session.meta, repository: yaml.repository };
  return session;
}

export function parseCopilotLines(lines: LineRecord[], ctx: ParseContext): ParseOutput {
  const kind = copilotFileKind(ctx.path);
  if (kind === 'legacy') {
    // A JSON document rewritten whole: read from the file (the engine holds back a last line without newline).
    let doc: unknown;
    try {
      doc = JSON.parse(readJsonSource(ctx.path));
    } catch {
      return { ...emptyParseOutput(), malformed: [{ line: lines[0]?.line ?? 1, reason: 'invalid JSON document' }] };
    }
    return parseLegacySession(doc, sessionIdOfPath(ctx.path));
  }
  const out = emptyParseOutput();
  const session = sessionOf(ctx.path, kind);
  out.sessions.push(session);
  const ectx: EventContext = {
    sessionKey: session.key,
    line: 0,
    toolNames: new Map(),
    skip: (type) => {
      out.skipped[type] = (out.skipped[type] ?? 0) + 1;
    },
  };
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      out.malformed.push({ line, reason: 'invalid JSON' });
      continue;
    }
    const event = asEvent(value);
    if (!event) {
      out.malformed.push({ line, reason: 'not a Copilot CLI event (no type)' });
      continue;
    }
    if (event.type === 'session.start') {
      const context = isObject(event.data.context) ? event.data.context : {};
      session.project ??= str(context.cwd);
      session.gitBranch ??= str(context.branch);
      const version = str(event.data.copilotVersion);
      if (version) session.meta = { ...session.meta, copilotVersion: version };
    }
    ectx.line = line;
    out.messages.push(...convertEvent(event, ectx));
  }
  return out;
}
