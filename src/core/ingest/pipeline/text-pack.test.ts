// Texts packed as UTF-8 bytes and moved to another thread's port (a real MessageChannel, buffer
// transferred) are stored exactly as the same texts bound as strings: rows, bytes and full-text index.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { openStore, type Store } from '../../../store/db.js';
import { SessionWriter } from '../../../store/session-writer.js';
import { SourceRegistry } from '../../../store/source-registry.js';
import type { Block, ParseOutput } from '../../../shared/model.js';
import { applyPreparedOutput } from '../apply.js';
import { prepareMergeOutput, type PreparedOutput } from '../prepare.js';
import { createRedactor } from '../redact.js';
import { packTexts } from './text-pack.js';

const CJK_LONG = '数据库迁移'.repeat(4000); // 3 bytes per character: more than the buffer starts with
const TEXTS: Block[] = [
  { kind: 'text', text: 'plain ASCII with parseSessionFile and getHTTPResponse' },
  { kind: 'text', text: 'café naïve — “quotes” and an emoji 🚀 in readFileSync' },
  { kind: 'text', text: `数据库迁移 mixed with English ${CJK_LONG}` },
  { kind: 'text', text: 'a cut emoji \ud83d here, \ude80 there and at the end \ud83d' },
  { kind: 'image', text: '', meta: { mediaType: 'image/png' } },
  { kind: 'text', text: 'export API_KEY="Zx81kq02LmNbv7Qw" please' },
];

function output(): ParseOutput {
  return {
    sessions: [{ key: 's1', project: '/p' }],
    messages: [
      { sessionKey: 's1', key: 'm1', role: 'user', kind: 'prompt', line: 1, blocks: TEXTS.slice(0, 3) },
      {
        sessionKey: 's1',
        key: 'm2',
        role: 'assistant',
        kind: 'response',
        line: 2,
        meta: { requestId: 'req_ü1', note: '数据' },
        blocks: [
          ...TEXTS.slice(3),
          { kind: 'tool_result', text: 'x'.repeat(40_000) + ' tailWord', toolCallId: 'c1', meta: { exitCode: 0 } },
        ],
      },
      {
        sessionKey: 's1',
        key: 'm3',
        role: 'assistant',
        kind: 'response',
        line: 3,
        blocks: [
          {
            kind: 'tool_call',
            text: 'run: ls -la',
            toolName: 'Bash',
            toolCallId: 'c2',
            toolInput: { command: 'ls -la', path: '/tmp/ü' },
          },
        ],
      },
    ],
    malformed: [],
    skipped: {},
  } as unknown as ParseOutput;
}

/** Sends a prepared batch through a real MessageChannel, its packed buffer in the transfer list. */
function acrossThreads(prepared: PreparedOutput): PreparedOutput {
  const { port1, port2 } = new MessageChannel();
  const bytes = packTexts(prepared);
  port1.postMessage(prepared, [bytes]);
  const received = receiveMessageOnPort(port2)!.message as PreparedOutput;
  port1.close();
  expect(bytes.byteLength).toBe(0); // transferred, not copied
  return received;
}

let dir: string;
const stores: Store[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-pack-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

function store(name: string, prepared: PreparedOutput): Store {
  const s = openStore(join(dir, name, 'strata.db'));
  stores.push(s);
  const sourceId = new SourceRegistry(s.db).insert(join(dir, 'a.jsonl'), 'claude-code').id;
  const writer = new SessionWriter(s.db);
  writer.withFileTransaction(() =>
    applyPreparedOutput(writer, sourceId, 'claude-code', prepared, {
      messagesAdded: 0,
      messagesUpdated: 0,
      blocksAdded: 0,
    }),
  );
  writer.fts.flush();
  return s;
}

const dump = (s: Store) => [
  ...s.db
    .prepare(
      'SELECT id, kind, field, hex(text) AS bytes, typeof(text) AS type, tool_input, typeof(tool_input) AS ' +
        'inputType, meta, typeof(meta) AS metaType FROM blocks ORDER BY id',
    )
    .all(),
  ...s.db.prepare('SELECT id, key, meta, typeof(meta) AS metaType FROM messages ORDER BY id').all(),
];
const hits = (s: Store, q: string) =>
  s.db.prepare('SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? ORDER BY rowid').pluck().all(q);

describe('texts packed as bytes for the writer thread', () => {
  it('lays every text and its indexed text out as UTF-8 in one buffer, as views', () => {
    const prepared = prepareMergeOutput(output(), createRedactor(true), true);
    const bytes = packTexts(prepared);
    const blocks = prepared.messages.flatMap((m) => m.blocks);
    for (const [i, block] of blocks.entries()) {
      if (TEXTS[i]?.text === '') {
        expect(block.text).toBe('');
        continue;
      }
      expect(block.text).toBeInstanceOf(Uint8Array);
      expect((block.text as Uint8Array).buffer).toBe(bytes);
      expect(block.ftsBytes!.buffer).toBe(bytes);
    }
    const decode = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
    // The indexed text follows the text in place when it is the text plus a camelCase tail.
    expect(decode(blocks[0]!.ftsBytes!)).toBe(
      'plain ASCII with parseSessionFile and getHTTPResponse\nparse Session File . get HTTP Response',
    );
    expect(blocks[0]!.ftsBytes!.byteOffset).toBe((blocks[0]!.text as Uint8Array).byteOffset);
    // CJK is spaced out in the indexed text only; the text keeps its bytes.
    expect(decode(blocks[2]!.text as Uint8Array)).toBe(`数据库迁移 mixed with English ${CJK_LONG}`);
    expect(decode(blocks[2]!.ftsBytes!).startsWith(' 数  据  库')).toBe(true);
    expect(decode(blocks[3]!.text as Uint8Array)).toBe('a cut emoji \ufffd here, \ufffd there and at the end \ufffd');
    expect(decode(blocks[5]!.text as Uint8Array)).toBe('export API_KEY="[REDACTED:env-secret]" please');
    // Tool output is indexed up to its first 32 KiB, then the identifiers of the rest.
    expect(decode(blocks[6]!.ftsBytes!) === `${'x'.repeat(32 * 1024)}\ntailWord`).toBe(true);
  });

  it('stores the same rows, bytes and index as texts bound as strings', () => {
    const asStrings = store('strings', prepareMergeOutput(output(), createRedactor(true)));
    // Packed texts skip the lone-surrogate check (see prepareMessage): the bytes must still be the same.
    const asBytes = store('bytes', acrossThreads(prepareMergeOutput(output(), createRedactor(true), true)));
    expect(dump(asBytes)).toEqual(dump(asStrings));
    const rows = dump(asBytes) as {
      type?: string;
      inputType?: string;
      metaType: string;
      meta: string | null;
      tool_input?: string | null;
    }[];
    expect(rows.filter((row) => row.type !== undefined).every((row) => row.type === 'text')).toBe(true);
    expect(rows.filter((row) => row.meta !== null).every((row) => row.metaType === 'text')).toBe(true);
    expect(rows.filter((row) => row.meta !== null).map((row) => JSON.parse(row.meta!))).toEqual(
      expect.arrayContaining([{ mediaType: 'image/png' }, { exitCode: 0 }, { requestId: 'req_ü1', note: '数据' }]),
    );
    expect(rows.find((row) => row.tool_input?.startsWith('{'))).toMatchObject({
      tool_input: '{"command":"ls -la","path":"/tmp/ü"}',
      inputType: 'text',
    });
    for (const q of [
      'parse',
      'Session',
      'HTTP',
      'café',
      'naive',
      '"数 据 库"',
      'emoji',
      'REDACTED',
      'tailWord',
      'Zx81kq02LmNbv7Qw',
    ]) {
      expect(hits(asBytes, q), q).toEqual(hits(asStrings, q));
    }
    expect(hits(asBytes, 'Session')).toHaveLength(1);
    expect(hits(asBytes, '"数 据 库"')).toHaveLength(1);
    expect(hits(asBytes, 'tailWord')).toHaveLength(1); // past the tool output's 32 KiB, as an identifier
    expect(hits(asBytes, 'Zx81kq02LmNbv7Qw')).toHaveLength(0);
  });
});
