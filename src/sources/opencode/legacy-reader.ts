// Owns reading OpenCode's legacy JSON tree (builds before the SQLite store): the source file is the
// session info `storage/session/<projectID|info>/<sessionID>.json`; its messages live in
// `storage/message/<sessionID>/<messageID>.json` and their parts in `storage/part/<messageID>/*.json`
// (the oldest builds kept parts inline in the message file).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { emptyParseOutput, type ParseOutput } from '../../shared/model.js';
import { convertSession, type RawMessage, type RawPart, type RawSession } from './convert.js';
import { isRecord, parseJsonObject, str } from './schema.js';

/** `<storage>/session/<group>/<id>.json` → `<storage>`. */
function storageDirOf(sessionFile: string): string {
  return dirname(dirname(dirname(sessionFile)));
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The first of `dirs` that holds JSON files (older builds kept messages and parts under session/). */
function firstJsonDir(dirs: string[]): string[] {
  for (const dir of dirs) {
    const files = jsonFiles(dir);
    if (files.length > 0) return files;
  }
  return [];
}

function messageFiles(storage: string, sessionId: string): string[] {
  return firstJsonDir([join(storage, 'message', sessionId), join(storage, 'session', 'message', sessionId)]);
}

function partFiles(storage: string, sessionId: string, messageId: string): string[] {
  return firstJsonDir([join(storage, 'part', messageId), join(storage, 'session', 'part', sessionId, messageId)]);
}

function loadParts(storage: string, sessionId: string, messageId: string, inline: unknown): RawPart[] {
  if (Array.isArray(inline)) {
    return inline.map((p, i) => ({
      id: isRecord(p) && str(p.id) ? String(p.id) : `${messageId}:${String(i).padStart(6, '0')}`,
      data: p,
    }));
  }
  return partFiles(storage, sessionId, messageId).map((file) => ({
    id: basename(file, '.json'),
    data: readText(file) ?? '',
  }));
}

export function parseLegacySession(path: string): ParseOutput {
  const out = emptyParseOutput();
  const text = readText(path);
  if (text === undefined) return { ...out, notSession: 'cannot read the session file' };
  const info = parseJsonObject(text);
  if (!info) {
    out.malformed.push({ line: 1, reason: 'session info is not valid JSON (truncated or corrupt)' });
    return out;
  }
  const id = str(info.id);
  if (!id || !isRecord(info.time))
    return { ...out, notSession: 'not an OpenCode session info file (needs "id" and "time")' };
  const time = isRecord(info.time) ? info.time : {};
  const session: RawSession = { id };
  if (str(info.directory)) session.directory = String(info.directory);
  if (str(info.title)) session.title = String(info.title);
  if (str(info.parentID)) session.parentId = String(info.parentID);
  if (str(info.projectID)) session.projectId = String(info.projectID);
  if (str(info.version)) session.version = String(info.version);
  if (typeof time.created === 'number') session.timeCreated = time.created;
  if (typeof time.updated === 'number') session.timeUpdated = time.updated;

  const storage = storageDirOf(path);
  const messages: RawMessage[] = [];
  for (const file of messageFiles(storage, id)) {
    const raw = readText(file) ?? '';
    const parsed = parseJsonObject(raw);
    const messageId = (parsed && str(parsed.id)) || basename(file, '.json');
    // The oldest builds kept times under `metadata`.
    const time =
      parsed && (isRecord(parsed.time) ? parsed.time : isRecord(parsed.metadata) ? parsed.metadata.time : {});
    const created = isRecord(time) && typeof time.created === 'number' ? time.created : undefined;
    const message: RawMessage = {
      id: messageId,
      data: parsed ?? raw,
      parts: loadParts(storage, id, messageId, parsed?.parts),
    };
    if (created !== undefined) message.timeCreated = created;
    messages.push(message);
  }
  messages.sort((a, b) => (a.timeCreated ?? 0) - (b.timeCreated ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  convertSession(session, messages, out);
  return out;
}

/** Change check over the session file, its message files and their part files (count + max mtime). */
export function legacySessionFingerprint(path: string): string | undefined {
  try {
    const id = basename(path, '.json');
    const storage = storageDirOf(path);
    let count = 0;
    let latest = statSync(path).mtimeMs;
    const visit = (file: string) => {
      count++;
      latest = Math.max(latest, statSync(file).mtimeMs);
    };
    for (const file of messageFiles(storage, id)) {
      visit(file);
      for (const part of partFiles(storage, id, basename(file, '.json'))) visit(part);
    }
    return `legacy:${count}:${latest}`;
  } catch {
    return undefined;
  }
}
