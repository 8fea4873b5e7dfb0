// Owns what readers do while stored texts wait for a scan with newer secret rules (an upgrade changed
// them, and no writer has finished the scan yet): everything a reader sends out is redacted with the
// current rules on its way out, and the reader says so once (a stderr line, a note in MCP answers, a header).
import type { Database } from 'better-sqlite3';
import { createRedactor, redactText, redactValue } from '../../shared/redact/index.js';
import { rescanPending } from './rescan-pending.js';

export { RESCAN_PENDING_NOTE, rescanPending } from './rescan-pending.js';

/** A value (strings, arrays, objects) with every string redacted with the current rules. */
export function redactOutgoing<T>(value: T): T {
  return redactValue(value, createRedactor());
}

/** A text redacted with the current rules. */
export const redactOutgoingText = (text: string): string => redactText(text).text;

/** `value` as it may leave strata now: as stored, or redacted with the current rules while a scan is pending. */
export function redactIfPending<T>(db: Database, value: T): T {
  return rescanPending(db) ? redactOutgoing(value) : value;
}
