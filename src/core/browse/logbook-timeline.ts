// Owns the Logbook page's data: the workspaces that have a stored logbook, and the timeline of one,
// newest first, filtered by type, time and text, each event with the title of the session it cites.
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import { listLogbookRows } from '../../store/logbook-table.js';
import { readStoredLogbook } from '../logbook/document.js';
import { workspaceForFolder } from '../logbook/show.js';
import { EVENT_TYPES, type EventType, type TimelineEvent } from '../logbook/types.js';

interface LogbookWorkspace {
  workspace: string;
  kind: string;
  events: number;
  generatedAt: string;
}

export interface TimelineEntry extends TimelineEvent {
  /** Title (else first prompt) of the cited session; null when it has neither or is not stored. */
  sessionTitle: string | null;
  /** The cited session is in the store, so the link opens it. */
  sessionStored: boolean;
}

export interface LogbookTimeline {
  /** Every workspace with a stored logbook, most recently updated first. */
  workspaces: LogbookWorkspace[];
  /** The workspace shown (null when the store holds no logbook). */
  workspace: string | null;
  generatedAt: string | null;
  sourceRange: { from: string; to: string } | null;
  generator: { provider: string; model: string } | null;
  /** Events of the whole logbook, by type, before the filters. */
  byType: Record<EventType, number>;
  total: number;
  /** Matching events, newest first. */
  events: TimelineEntry[];
}

export interface LogbookTimelineQuery {
  /** A stored workspace, exactly as listed. */
  workspace?: string | undefined;
  /** A folder: its own logbook, else the nearest stored workspace above it. */
  project?: string | undefined;
  types?: readonly EventType[] | undefined;
  /** ISO time: only events at or after it. */
  since?: string | undefined;
  /** Case-insensitive words, each found in the content, rationale, alternatives, code or resolution. */
  text?: string | undefined;
  /** The folder the reader works in: with neither workspace nor project, its logbook is shown first. */
  current?: string | undefined;
}

const emptyCounts = (): Record<EventType, number> =>
  Object.fromEntries(EVENT_TYPES.map((t) => [t, 0])) as Record<EventType, number>;

function searchable(e: TimelineEvent): string {
  return [e.content, e.rationale, ...(e.alternatives ?? []), e.code, e.resolution]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

/** Title (else first prompt) of each stored session; a subagent without one is named after its parent. */
function sessionTitles(db: Database, ids: string[]): Map<string, string | null> {
  const titles = new Map<string, string | null>();
  const lookup =
    db.prepare(`SELECT COALESCE(s.title, st.first_prompt) AS title, COALESCE(p.title, pst.first_prompt) AS parent
    FROM sessions s LEFT JOIN session_stats st ON st.session_id = s.id
      LEFT JOIN sessions p ON p.id = s.parent_id LEFT JOIN session_stats pst ON pst.session_id = p.id
    WHERE s.external_id = ? ORDER BY s.id LIMIT 1`);
  for (const id of new Set(ids)) {
    const row = lookup.get(id) as { title: string | null; parent: string | null } | undefined;
    if (row) titles.set(id, row.title ?? (row.parent ? `subagent of: ${row.parent}` : null));
  }
  return titles;
}

/** Away from any logbook's folder, the fullest logbook is shown (not the one built last, maybe of one event). */
function mostEvents(workspaces: LogbookWorkspace[]): string | undefined {
  let best: LogbookWorkspace | undefined;
  for (const w of workspaces) if (!best || w.events > best.events) best = w;
  return best?.workspace;
}

export function logbookTimeline(db: Database, query: LogbookTimelineQuery = {}): LogbookTimeline {
  const workspaces = listLogbookRows(db).map(({ workspace, kind, events, generatedAt }) => ({
    workspace,
    kind,
    events,
    generatedAt,
  }));
  let workspace: string | undefined;
  if (query.workspace) {
    if (!workspaces.some((w) => w.workspace === query.workspace))
      throw new StrataError('NOT_FOUND', `no logbook for ${query.workspace} (run \`strata logbook --project DIR\`)`);
    workspace = query.workspace;
  } else if (query.project) {
    workspace = workspaceForFolder(db, query.project);
    if (!workspace)
      throw new StrataError(
        'NOT_FOUND',
        `no logbook for ${query.project} or a folder above it (run \`strata logbook --project DIR\`)`,
      );
  } else workspace = (query.current && workspaceForFolder(db, query.current)) || mostEvents(workspaces);
  const doc = workspace ? readStoredLogbook(db, workspace) : undefined;
  const empty = { workspaces, byType: emptyCounts(), total: 0, events: [] };
  if (!workspace) return { ...empty, workspace: null, generatedAt: null, sourceRange: null, generator: null };
  if (!doc)
    throw new StrataError(
      'INVALID_INPUT',
      `the stored logbook of ${workspace} is unreadable (rebuild it with \`strata logbook --full\`)`,
    );

  const byType = emptyCounts();
  for (const e of doc.timeline) byType[e.type]++;
  const types = query.types && query.types.length > 0 ? new Set(query.types) : undefined;
  const words = (query.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matching = doc.timeline
    .filter((e) => (!types || types.has(e.type)) && (!query.since || e.timestamp >= query.since))
    .filter((e) => words.length === 0 || ((text) => words.every((w) => text.includes(w)))(searchable(e)))
    .sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
  const titles = sessionTitles(
    db,
    matching.map((e) => e.source.session),
  );
  return {
    workspaces,
    workspace,
    generatedAt: doc.generated_at,
    sourceRange: doc.source_range,
    generator: { provider: doc.generator.provider, model: doc.generator.model },
    byType,
    total: doc.timeline.length,
    events: matching.map((e) => ({
      ...e,
      sessionTitle: titles.get(e.source.session) ?? null,
      sessionStored: titles.has(e.source.session),
    })),
  };
}
