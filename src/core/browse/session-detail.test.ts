import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { BLOCK_TEXT_CHARS, blockText, sessionDetail } from './session-detail.js';

const SID = '33333333-4444-4555-8666-777777777777';
const LOG = Array.from({ length: 8000 }, (_, i) => `line ${i} of the output\n`).join('');
const FILE = Array.from({ length: 12_000 }, (_, i) => `const v${i} = ${i};\n`).join('');

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-detail-'));
  store = openStore(join(dir, 'strata.db'));
  const base = { isSidechain: false, userType: 'external', cwd: '/work/d', sessionId: SID, version: '2.1.97' };
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  const call = { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/work/d/big.ts', content: FILE } };
  const records = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: at(0), message: { role: 'user', content: 'go' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: at(1),
      message: { id: 'm1', role: 'assistant', content: [call] },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: at(2),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: LOG }] },
    },
  ];
  const path = join(dir, `${SID}.jsonl`);
  writeFileSync(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  await ingest({ store, paths: [path], env: { HOME: dir }, cwd: dir });
});

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sessionDetail of long blocks', () => {
  it('cuts a long result at 100,000 characters, marked so, and blockText reads on from an offset', () => {
    const blocks = sessionDetail(store.db, SID).messages.flatMap((m) => m.blocks);
    const result = blocks.find((b) => b.kind === 'tool_result')!;
    expect(result.text).toBe(LOG.slice(0, BLOCK_TEXT_CHARS));
    expect(result.cut).toMatchObject({ shown: BLOCK_TEXT_CHARS, total: LOG.length });
    const rest = blockText(store.db, result.cut!.id, result.cut!.shown);
    expect(rest).toMatchObject({ offset: BLOCK_TEXT_CHARS, total: LOG.length, text: LOG.slice(BLOCK_TEXT_CHARS) });
    expect(() => blockText(store.db, 999_999, 0)).toThrow(/no block 999999/);
  });

  it('parses a tool input past 100,000 characters whole: its write is a diff, not a cut text', () => {
    const detail = sessionDetail(store.db, SID);
    const write = detail.messages.flatMap((m) => m.blocks).find((b) => b.kind === 'tool_call')!;
    expect(write.cut).toBeUndefined();
    expect(write.hunks?.[0]?.lines).toHaveLength(12_000);
    expect(detail.files).toEqual([{ path: '/work/d/big.ts', added: 12_000, removed: 0 }]);
  });
});
