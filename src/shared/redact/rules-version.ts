// Owns the version of the secret rules. A store remembers the version its texts were redacted with;
// when it differs, `strata ingest` (or `strata redact`) scans the stored texts again, so a secret an
// older rule missed does not stay in the store. Bump it whenever a rule is added or changed.
export const REDACTION_RULES_VERSION = 'rules-3';
