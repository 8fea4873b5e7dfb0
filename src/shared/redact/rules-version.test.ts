// The rules version follows the rules: a changed rule definition fails this test until the version is
// bumped (stores then scan their texts again) and the new fingerprint recorded here.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OWN_RULES } from './own-rules.js';
import { REDACTION_RULES_VERSION } from './rules-version.js';
import { VENDOR_RULES } from './vendor-rules.js';

function rulesFingerprint(): string {
  const own = OWN_RULES.map((r) => [r.kind, r.hints, String(r.pattern), String(r.prefilter ?? ''), String(r.accept)]);
  const vendor = Object.entries(VENDOR_RULES).map(([id, r]) => [id, r.kind, r.hints, String(r.prefilter ?? '')]);
  return createHash('sha256').update(JSON.stringify({ own, vendor })).digest('hex').slice(0, 16);
}

describe('REDACTION_RULES_VERSION', () => {
  it('is bumped whenever a rule changes', () => {
    expect({ version: REDACTION_RULES_VERSION, fingerprint: rulesFingerprint() }).toEqual({
      version: 'rules-3',
      fingerprint: '3bc749d485204d32',
    });
  });
});
