// Owns "the latest sessions of this project": the newest top-level sessions whose project folder is the
// given one or inside it, one line each (short id, start, agent, messages, title).
import type { Database } from 'better-sqlite3';
import { listSessions, type ListingEntry } from './session-listing.js';
import { shortTime } from './format-listing.js';

export function latestProjectSessions(
  db: Database,
  projectDir: string,
  limit: number,
  home: string | null = null,
): ListingEntry[] {
  const dir = projectDir.replace(/\/+$/, '') || '/';
  // The listing's project filter matches by substring; keep only this folder and folders inside it.
  const candidates = listSessions(db, { project: dir, limit: limit * 20 }, home);
  return candidates.filter((s) => s.project === dir || (s.project ?? '').startsWith(dir + '/')).slice(0, limit);
}

export function projectSessionLine(s: ListingEntry): string {
  const title = (s.title ?? '').replace(/\s+/g, ' ').trim().slice(0, 100);
  return `${s.shortId}  ${shortTime(s.startedAt)}  ${s.agent}  ${s.messages} msgs  ${title}`.trimEnd();
}
