// Builders of Codex rollout records for the parser tests: envelopes, session_meta, messages, token counts.
import type { LineRecord } from '../../src/sources/types.js';
import { codexAdapter } from '../../src/sources/codex/index.js';

export const ID = '019c0000-aaaa-7bbb-8ccc-dddddddddddd';
export const PATH = `/home/u/.codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-${ID}.jsonl`;

export const env = (timestamp: string, type: string, payload: object) => JSON.stringify({ timestamp, type, payload });
export const meta = (extra: object = {}, ts = '2026-01-02T10:00:00.000Z') =>
  env(ts, 'session_meta', {
    id: ID,
    timestamp: ts,
    cwd: '/work/app',
    cli_version: '0.90.0',
    git: { branch: 'main' },
    ...extra,
  });
export const item = (ts: string, payload: object) => env(ts, 'response_item', payload);
export const user = (ts: string, text: string) =>
  item(ts, { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
export const assistant = (ts: string, text: string) =>
  item(ts, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
export const tokens = (ts: string, total: number, input: number, cached: number, output: number) =>
  env(ts, 'event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: { total_tokens: total },
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: 1,
      },
    },
  });
export const lines = (texts: string[], start = 1): LineRecord[] => texts.map((text, i) => ({ text, line: start + i }));
export const parse = (texts: string[], start = 1, path = PATH) =>
  codexAdapter.parseLines(lines(texts, start), { path });
