// Owns the token count of whole messages (every block's text), so a search hit can say what reading
// the message it cites would cost.
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';

/**
 * Estimated tokens (≈4 characters a token, as estimateTokens) of message `n` (1-based position, as `read`
 * numbers them) of the session `externalId` of `agent`: counted in SQL, without loading the text.
 */
export function messageTokenEstimate(db: Database, agent: string, externalId: string, n: number): number {
  const chars = cachedStatement(
    db,
    `SELECT COALESCE(SUM(LENGTH(b.text)), 0) FROM blocks b WHERE b.message_id = (
       SELECT m.id FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE s.agent = ? AND s.external_id = ? ORDER BY m.seq, m.id LIMIT 1 OFFSET ?)`,
  )
    .pluck(true)
    .get(agent, externalId, Math.max(0, n - 1)) as number;
  return Math.ceil(chars / 4);
}
