// A tool input nested thousands of levels deep costs nothing: every walk over parsed JSON is bounded, the
// line is stored (its deep part as JSON text), and lines appended later are still ingested.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ADAPTERS } from '../../sources/registry.js';
import { ingest } from './ingest.js';

const SID = '11111111-2222-3333-4444-555555555555';
const BASE = `"sessionId":"${SID}","cwd":"/w","version":"2.1.0","timestamp":"2026-01-01T00:00:00.000Z"`;
const deep = (depth: number) => '{"a":'.repeat(depth) + '"bottom"' + '}'.repeat(depth);
const userLine = (uuid: string, text: string) =>
  `{${BASE},"type":"user","uuid":"${uuid}","message":{"role":"user","content":"${text}"}}\n`;

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-deep-'));
  mkdirSync(join(dir, 'proj'));
  store = openStore(join(dir, 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('deeply nested JSON in a transcript', () => {
  for (const redact of [true, false]) {
    it(`stores the line and every later one (redaction ${redact ? 'on' : 'off'})`, async () => {
      const file = join(dir, 'proj', `${SID}.jsonl`);
      const input = deep(20_000);
      writeFileSync(
        file,
        userLine('u1', 'first line') +
          `{${BASE},"type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","model":"x",` +
          `"content":[{"type":"tool_use","id":"t1","name":"Bash","input":${input}}]}}\n` +
          `{${BASE},"type":"user","uuid":"u2","message":{"role":"user",` +
          `"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"toolUseResult":${input}}\n` +
          userLine('u3', 'after the deep lines'),
      );
      const first = await ingest({ store, paths: [join(dir, 'proj')], adapters: ADAPTERS, env: {}, cwd: dir, redact });
      expect(first.problems).toEqual([]);
      appendFileSync(file, userLine('u4', 'appended later'));
      const second = await ingest({ store, paths: [join(dir, 'proj')], adapters: ADAPTERS, env: {}, cwd: dir, redact });
      expect(second.problems).toEqual([]);
      const n = (store.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
      expect(n).toBe(5);
      const call = store.db.prepare("SELECT text, tool_input FROM blocks WHERE kind = 'tool_call'").get() as {
        text: string;
        tool_input: string | null;
      };
      expect((call.tool_input || call.text).includes('"bottom"')).toBe(true);
    });
  }
});
