// Owns the one question every reader asks before it answers: do stored texts still wait for a scan with
// the current secret rules? Kept apart from the rules themselves, so asking it loads no rule.
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';
import { REDACTION_RULES_VERSION } from '../../shared/redact/rules-version.js';

export const RESCAN_PENDING_NOTE =
  'the stored texts are being scanned again with newer secret rules; output is redacted with them on the way out';

/** True while some stored texts were redacted with older rules (false for a store without the record). */
export function rescanPending(db: Database): boolean {
  try {
    const state = cachedStatement(db, 'SELECT rules, scan_end FROM redaction_state WHERE id = 1').get() as
      | { rules: string; scan_end: number | null }
      | undefined;
    return state !== undefined && (state.rules !== REDACTION_RULES_VERSION || state.scan_end !== null);
  } catch {
    return false;
  }
}
