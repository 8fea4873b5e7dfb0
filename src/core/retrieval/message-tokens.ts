// Owns the token count of whole messages (every block's text), so a search hit can say what reading
// the message it cites would cost.
import type { Database } from 'better-sqlite3';
import { countTokens } from '../../shared/tokenizer.js';
import { cachedStatement } from '../../store/statement-cache.js';

/** Tokens of message `n` (1-based position, as `read` numbers them) of the session `externalId` of `agent`. */
export function messageTokenCount(db: Database, agent: string, externalId: string, n: number): number {
  const texts = cachedStatement(
    db,
    `SELECT b.text FROM blocks b WHERE b.message_id = (
       SELECT m.id FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE s.agent = ? AND s.external_id = ? ORDER BY m.seq, m.id LIMIT 1 OFFSET ?)`,
  )
    .pluck(true)
    .all(agent, externalId, Math.max(0, n - 1)) as string[];
  return texts.reduce((sum, text) => sum + countTokens(text), 0);
}
