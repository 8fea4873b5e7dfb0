// Owns the public face of secret redaction: every feature that lets text out of strata calls
// `redactText` (one text) or a `Redactor` (many, with counts and locations).
export { redactText, findSecrets, placeholderFor } from './redact-text.js';
export { createRedactor, redactValue, type Redactor, type RedactionEntry, type RedactionLocation } from './redactor.js';
export { REDACTION_RULES_VERSION } from './rules-version.js';
