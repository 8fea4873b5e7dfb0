// Owns one read the ingest needs to tell a copy from a session's own items: the block texts a stored
// session holds (a fork's replayed prefix is dropped only when its parent holds the same texts).
import type { Database } from 'better-sqlite3';
import { cachedStatement } from './statement-cache.js';

/** The texts of every block of session (agent, key), or undefined when it is not stored or has no message. */
export function storedBlockTexts(db: Database, agent: string, key: string): Set<string> | undefined {
  const texts = cachedStatement(
    db,
    `SELECT b.text FROM sessions s JOIN messages m ON m.session_id = s.id JOIN blocks b ON b.message_id = m.id
    WHERE s.agent = ? AND s.external_id = ?`,
  )
    .pluck(true)
    .all(agent, key) as string[];
  const hasMessages = cachedStatement(
    db,
    `SELECT EXISTS (SELECT 1 FROM sessions s JOIN messages m ON m.session_id = s.id
    WHERE s.agent = ? AND s.external_id = ?)`,
  )
    .pluck(true)
    .get(agent, key) as number;
  return hasMessages ? new Set(texts) : undefined;
}
