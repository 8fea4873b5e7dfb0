// Owns reading the chats Cursor kept in a workspace's `state.vscdb` before it moved them to the global
// database (late 2024): the chat panel's tabs (`workbench.panel.aichat.view.aichat.chatdata`, bubbles of
// type `user` / `ai`, titled by `chatTitle`) and composers with an inline `conversation` in
// `composer.composerData`. A workspace database without them only names its folder (read with the global one).
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { Db } from '../sqlite-snapshot.js';
import { isObject, isoTime, jsonObject, str, type Json } from './schema.js';

export const NO_WORKSPACE_CHATS =
  'editor workspace state without Cursor chats of its own (Cursor reads its folder with globalStorage/state.vscdb)';

function item(db: Db, key: string): Json | undefined {
  const raw = db.prepare('SELECT value FROM ItemTable WHERE key = ?').pluck().get(key);
  return jsonObject(typeof raw === 'string' ? raw : raw?.toString());
}

function chatTab(tab: Json, i: number, project: string | undefined, out: ParseOutput): void {
  const key = str(tab.tabId) ?? `tab:${i}`;
  const timestamp = isoTime(tab.lastSendTime);
  const messages: ParsedMessage[] = [];
  const bubbles = Array.isArray(tab.bubbles) ? tab.bubbles.filter(isObject) : [];
  bubbles.forEach((b, n) => {
    const text = str(b.text) ?? str(b.rawText);
    const user = b.type === 'user';
    if (!text?.trim() || (!user && b.type !== 'ai')) {
      out.skipped[`chat_bubble:${String(b.type)}:empty`] =
        (out.skipped[`chat_bubble:${String(b.type)}:empty`] ?? 0) + 1;
      return;
    }
    const message: ParsedMessage = {
      sessionKey: key,
      key: str(b.id) ?? `b${n}`,
      role: user ? 'user' : 'assistant',
      kind: user ? 'prompt' : 'response',
      line: n + 1,
      blocks: [{ kind: 'text', text }],
      ...(timestamp ? { timestamp } : {}),
    };
    const model = str(b.modelType);
    if (!user && model) message.model = model;
    messages.push(message);
  });
  if (messages.length === 0) return;
  const session: ParsedSession = { key, agent: 'cursor', meta: { mode: 'chat panel' } };
  const title = str(tab.chatTitle);
  if (title?.trim()) session.title = title;
  if (project) session.project = project;
  out.sessions.push(session);
  out.messages.push(...messages);
}

/** The chats of a workspace database; `convertComposer` reads an inline composer as the global reader does. */
export function readWorkspaceDb(
  db: Db,
  project: string | undefined,
  convertComposer: (id: string, composer: Json, out: ParseOutput) => void,
): ParseOutput {
  const out = emptyParseOutput();
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
  if (!tables.includes('ItemTable')) return { ...out, notSession: NO_WORKSPACE_CHATS };
  const chat = item(db, 'workbench.panel.aichat.view.aichat.chatdata');
  const tabs = Array.isArray(chat?.tabs) ? chat.tabs.filter(isObject) : [];
  tabs.forEach((tab, i) => chatTab(tab, i, project, out));
  const composers = item(db, 'composer.composerData');
  const all = Array.isArray(composers?.allComposers) ? composers.allComposers.filter(isObject) : [];
  // Only composers still holding their conversation: a migrated one is read from the global database.
  for (const c of all.filter((c) => Array.isArray(c.conversation) && c.conversation.length > 0)) {
    const id = str(c.composerId);
    if (id) convertComposer(id, c, out);
  }
  if (out.sessions.length === 0 && out.malformed.length === 0) return { ...out, notSession: NO_WORKSPACE_CHATS };
  return out;
}
