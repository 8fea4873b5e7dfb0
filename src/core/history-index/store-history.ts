// Owns reading a ParsedHistory from the store, for histories of any agent: a session is a branch (Puffin
// sessions are grouped back into their Puffin branch), each human prompt (kind 'prompt') and the agent
// replies up to the next prompt form one ParsedPrompt, chained to the previous prompt of the session.
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import { sha256 } from '../../shared/hash.js';
import { finalizeHistory } from './history-parser.js';
import { hashPrompt } from './hash-calculator.js';
import type { HistoryIssue, ParsedHistory, ParsedPrompt } from './types.js';

export interface StoreSelection {
  /** Sessions whose project is this folder or lies under it. */
  project?: string;
  /** External session ids, or unique prefixes of them. */
  sessions?: string[];
}

interface SessionRow {
  id: number;
  external_id: string;
  agent: string;
  title: string | null;
  meta: string | null;
}

interface MessageRow {
  id: number;
  key: string;
  seq: number;
  kind: string;
  timestamp: string | null;
  meta: string | null;
}

interface BlockRow {
  message_id: number;
  kind: string;
  field: string;
  text: string;
  noise: string | null;
}

const SESSION_COLUMNS = 'id, external_id, agent, title, meta';
/** Sessions that are not a person's conversation (their prompts are written by the agent). */
const NOT_CONVERSATIONS = "('subagent', 'side_question', 'prompt_suggestion')";

function parseMeta(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toMs(iso: string | null): number {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(ms) ? ms : 0;
}

export function selectStoreSessions(db: Database, selection: StoreSelection): SessionRow[] {
  const rows: SessionRow[] = [];
  const seen = new Set<number>();
  const add = (row: SessionRow): void => {
    if (seen.has(row.id)) return;
    seen.add(row.id);
    rows.push(row);
  };
  if (selection.project !== undefined) {
    const dir = selection.project.replace(/\/+$/, '') || '/';
    const found = db
      .prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE (project = ? OR strata_project_match(project, ?)) AND
        archived = 0
        AND (relation IS NULL OR relation NOT IN ${NOT_CONVERSATIONS}) ORDER BY started_at, id`)
      .all(dir, dir) as SessionRow[];
    found.forEach(add);
  }
  for (const typed of selection.sessions ?? []) {
    const exact = db
      .prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE external_id = ?`)
      .all(typed) as SessionRow[];
    const matches =
      exact.length > 0
        ? exact
        : (db
            .prepare(
              `SELECT ${SESSION_COLUMNS} FROM sessions WHERE external_id >= ? AND external_id < ? ORDER BY ` +
                `external_id LIMIT 6`,
            )
            .all(typed, typed + '\uffff') as SessionRow[]);
    if (matches.length === 0)
      throw new StrataError('NOT_FOUND', `no session matches "${typed}" (see \`strata sessions\`)`);
    if (matches.length > 1)
      throw new StrataError(
        'AMBIGUOUS',
        `"${typed}" matches several sessions: ${matches
          .slice(0, 5)
          .map((m) => m.external_id)
          .join(', ')}; type more of the id`,
      );
    add(matches[0]!);
  }
  return rows;
}

/** Reads the selected sessions into a ParsedHistory; `contentHash` covers every prompt hash in order. */
export function parseStoreHistory(db: Database, storePath: string, selection: StoreSelection): ParsedHistory {
  const sessions = selectStoreSessions(db, selection);
  const messagesOf = db.prepare(
    'SELECT id, key, seq, kind, timestamp, meta FROM messages WHERE session_id = ? AND is_sidechain = 0 ORDER BY seq',
  );
  const blocksOf = db.prepare(
    `SELECT b.message_id, b.kind, b.field, b.text, b.noise FROM blocks b JOIN messages m ON m.id = b.message_id
     WHERE m.session_id = ? AND m.is_sidechain = 0 ORDER BY m.seq, b.idx`,
  );
  const prompts: ParsedPrompt[] = [];
  const branchOrder: string[] = [];
  const branchNames = new Map<string, string>();
  const issues: HistoryIssue[] = [];
  for (const session of sessions) {
    const meta = parseMeta(session.meta);
    const puffin = session.agent === 'puffin';
    const branchId =
      puffin && typeof meta.branchId === 'string'
        ? `puffin:${meta.branchId}`
        : `${session.agent}:${session.external_id}`;
    if (!branchOrder.includes(branchId)) branchOrder.push(branchId);
    if (!puffin && session.title) branchNames.set(branchId, session.title);
    else if (puffin && typeof meta.branchName === 'string') branchNames.set(branchId, meta.branchName);
    const texts = new Map<number, { user: string[]; assistant: string[] }>();
    for (const b of blocksOf.all(session.id) as BlockRow[]) {
      if (b.noise || b.kind !== 'text' || b.text === '') continue;
      let entry = texts.get(b.message_id);
      if (!entry) texts.set(b.message_id, (entry = { user: [], assistant: [] }));
      if (b.field === 'user') entry.user.push(b.text);
      else if (b.field === 'assistant') entry.assistant.push(b.text);
    }
    let current: ParsedPrompt | undefined;
    let previousId: string | null = null;
    for (const m of messagesOf.all(session.id) as MessageRow[]) {
      const text = texts.get(m.id);
      if (m.kind === 'prompt') {
        const content = (text?.user ?? []).join('\n\n');
        if (content.trim() === '') {
          issues.push({ reason: 'prompt without text (skipped)', branchId, index: m.seq });
          continue;
        }
        const mMeta = parseMeta(m.meta);
        const id = puffin && typeof mMeta.promptId === 'string' ? mMeta.promptId : `${session.external_id}/${m.key}`;
        const parentId = puffin ? (typeof mMeta.parentId === 'string' ? mMeta.parentId : null) : previousId;
        current = {
          id,
          branchId,
          parentId,
          content,
          timestamp: toMs(m.timestamp),
          response: null,
          children: [],
          depth: 0,
        };
        prompts.push(current);
        previousId = id;
      } else if (m.kind === 'response' && current) {
        const reply = (text?.assistant ?? []).join('\n\n');
        const at = toMs(m.timestamp);
        const r = (current.response ??= {
          content: '',
          sessionId: session.external_id,
          cost: 0,
          turns: 0,
          duration: 0,
          timestamp: at,
        });
        if (reply !== '') r.content = r.content === '' ? reply : `${r.content}\n\n${reply}`;
        r.turns++;
        const mMeta = parseMeta(m.meta);
        if (typeof mMeta.cost === 'number') r.cost += mMeta.cost;
        if (at > 0) {
          r.timestamp = at;
          if (current.timestamp > 0) r.duration = Math.max(0, at - current.timestamp);
        }
      }
    }
  }
  const hash = sha256(prompts.map((p) => `${p.branchId}\u0000${hashPrompt(p)}`).join('\n'));
  return finalizeHistory(prompts, branchOrder, branchNames, issues, {
    kind: 'store',
    path: storePath,
    contentHash: hash,
    selection,
  });
}
