// Owns a minimal line adapter used by the ingest engine's own tests: `{"s": session, "id": key, "t": text}` per line.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { emptyParseOutput } from '../../src/shared/model.js';
import type { LineAdapter } from '../../src/sources/types.js';

export const testLineAdapter: LineAdapter = {
  agent: 'claude-code',
  displayName: 'Test JSONL',
  locations: '`$TEST_ROOT`',
  formats: ['`*.jsonl`'],
  format: 'lines',
  defaultRoots: (env) => (env.TEST_ROOT ? [env.TEST_ROOT] : []),
  detect: (path) => path.endsWith('.jsonl'),
  discover: (root) =>
    readdirSync(root)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => join(root, f)),
  parseLines(lines) {
    const out = emptyParseOutput();
    for (const { text, line } of lines) {
      let rec: { s?: string; id?: string; t?: string; kind?: string };
      try {
        rec = JSON.parse(text) as typeof rec;
      } catch {
        out.malformed.push({ line, reason: 'invalid JSON' });
        continue;
      }
      if (!rec || typeof rec !== 'object' || typeof rec.s !== 'string' || typeof rec.id !== 'string') {
        out.skipped[rec?.kind ?? 'unknown'] = (out.skipped[rec?.kind ?? 'unknown'] ?? 0) + 1;
        continue;
      }
      out.messages.push({
        sessionKey: rec.s,
        key: rec.id,
        role: 'user',
        kind: 'prompt',
        line,
        timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, line)).toISOString(),
        blocks: [{ kind: 'text', text: rec.t ?? '' }],
      });
    }
    return out;
  },
};
