// Owns reading a stored logbook for people and agents: `logbookForProject` (what the session-start hook
// and the MCP server inject) finds the logbook of a folder (its own, else the nearest enclosing
// workspace's), filters it by type and time, and cuts it newest first to a token budget.
import type { Database } from 'better-sqlite3';
import { resolve, sep } from 'node:path';
import { countTokens } from '../../shared/tokenizer.js';
import { logbookWorkspaces } from '../../store/logbook-table.js';
import { readStoredLogbook } from './document.js';
import { showLine } from './format.js';
import type { EventType, LogbookDocument, TimelineEvent } from './types.js';

export interface LogbookQuery {
  /** Most tokens of the returned text (default: no limit). */
  budget?: number | undefined;
  types?: readonly EventType[] | undefined;
  /** ISO time: only events at or after it. */
  since?: string | undefined;
}

export interface LogbookView {
  workspace: string | null;
  /** Header line plus one line per event, newest first, within the budget ('' when there is no logbook). */
  text: string;
  /** The events shown, newest first. */
  events: TimelineEvent[];
  /** Events matching the filters before the budget cut. */
  matching: number;
  generatedAt: string | null;
}

/** The workspace whose logbook serves `dir`: the same folder, else the nearest stored folder above it. */
export function workspaceForFolder(db: Database, dir: string): string | undefined {
  const target = resolve(dir);
  const workspaces = logbookWorkspaces(db);
  if (workspaces.includes(dir)) return dir;
  let best: string | undefined;
  for (const ws of workspaces) {
    if (ws === target) return ws;
    if (target.startsWith(ws.endsWith(sep) ? ws : ws + sep) && (!best || ws.length > best.length)) best = ws;
  }
  return best;
}

/** How much an event is worth to a new session: the user's own words, then fixed bugs and reasoned decisions. */
export function usefulness(event: TimelineEvent): number {
  let score = event.type === 'decision' ? 3 : event.type === 'bug' ? 2 : 1;
  // The user's decisions and constraints weigh most; a problem the user reports is not yet a fixed bug.
  if (event.source.role === 'user') score += event.type === 'decision' ? 3 : event.type === 'fact' ? 2 : 1;
  if (event.type === 'bug' && event.resolution) score += 2;
  if (event.type === 'decision' && (event.rationale || event.alternatives?.length)) score += 1;
  // A text cut short ("…") says less than a whole one.
  if (event.content.endsWith('\u2026')) score -= 1;
  return score;
}

function viewLogbook(doc: LogbookDocument, query: LogbookQuery = {}): LogbookView {
  const types = query.types && query.types.length > 0 ? new Set(query.types) : undefined;
  const matching = [...doc.timeline]
    .filter((e) => (!types || types.has(e.type)) && (!query.since || e.timestamp >= query.since))
    .sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
  const header =
    `Project logbook: ${doc.workspace} (generated ` +
    `${doc.generated_at.slice(0, 16).replace('T', ' ')}; newest first; open a source with the command in brackets)`;
  let used = countTokens(header + '\n');
  const chosen = new Set<TimelineEvent>();
  // Under a budget the most useful events are kept (newest first among equals), then shown newest first.
  const ranked = query.budget === undefined ? matching : [...matching].sort((a, b) => usefulness(b) - usefulness(a));
  for (const event of ranked) {
    const cost = countTokens(showLine(event) + '\n');
    if (query.budget !== undefined && used + cost > query.budget) continue;
    chosen.add(event);
    used += cost;
  }
  const events = matching.filter((e) => chosen.has(e));
  const lines = [header, ...events.map(showLine)];
  if (query.budget !== undefined && used > query.budget)
    return { workspace: doc.workspace, text: '', events: [], matching: matching.length, generatedAt: doc.generated_at };
  return {
    workspace: doc.workspace,
    text: lines.join('\n') + '\n',
    events,
    matching: matching.length,
    generatedAt: doc.generated_at,
  };
}

/** The stored logbook of a project folder, filtered and cut to a budget; an empty view when there is none. */
export function logbookForProject(db: Database, projectDir: string, query: LogbookQuery = {}): LogbookView {
  const workspace = workspaceForFolder(db, projectDir);
  const doc = workspace ? readStoredLogbook(db, workspace) : undefined;
  if (!doc) return { workspace: null, text: '', events: [], matching: 0, generatedAt: null };
  return viewLogbook(doc, query);
}
