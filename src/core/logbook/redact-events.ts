// Owns the one place the logbook reaches the project's redactor, so moving the redactor is one import.
import { createRedactor } from '../../shared/redact/index.js';

const redactor = createRedactor(true);

/** The text with every secret the project's redactor knows replaced by `[REDACTED:<kind>]`. */
export function redactEventText(text: string): string {
  return redactor.redact(text);
}
