// Redaction lives in shared/redact (every feature uses it); ingest imports it from here.
export {
  createRedactor,
  redactValue,
  type Redactor,
  type RedactionEntry,
  type RedactionLocation,
} from '../../shared/redact/index.js';
