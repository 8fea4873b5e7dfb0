// The oldest OpenCode JSON trees (sst/opencode packages/opencode/src/session/index.ts before the SQLite store):
// storage/session/info/<id>.json, messages in storage/session/message/<sessionID>/, parts either inline in
// AI SDK form (`tool-invocation`, times under `metadata`) or in storage/session/part/<sessionID>/<messageID>/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { opencodeAdapter } from './index.js';
import { parseLegacySession } from './legacy-reader.js';

const tmp = mkdtempSync(join(tmpdir(), 'strata-opencode-legacy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function put(rel: string, value: unknown): string {
  const path = join(tmp, 'storage', rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
  return path;
}

describe('opencode: oldest JSON layouts', () => {
  it('reads messages under session/message with inline AI SDK parts and metadata times', () => {
    const info = put('session/info/ses_old.json', { id: 'ses_old', title: 'Old', time: { created: 1, updated: 2 } });
    put('session/message/ses_old/msg_1.json', {
      id: 'msg_1',
      role: 'user',
      parts: [{ type: 'text', text: 'list files' }],
      metadata: { sessionID: 'ses_old', time: { created: 1000 } },
    });
    put('session/message/ses_old/msg_2.json', {
      id: 'msg_2',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-invocation',
          toolInvocation: { state: 'result', toolCallId: 'tc1', toolName: 'ls', args: { path: '.' }, result: 'a.ts' },
        },
        { type: 'text', text: 'one file' },
      ],
      metadata: {
        sessionID: 'ses_old',
        time: { created: 2000 },
        assistant: { modelID: 'old-model', path: { cwd: '/w' }, tokens: { input: 5, output: 7 } },
      },
    });
    const out = parseLegacySession(info);
    expect(out.sessions[0]).toMatchObject({ key: 'ses_old', project: '/w' });
    expect(out.messages.map((m) => [m.role, m.timestamp, m.model])).toEqual([
      ['user', '1970-01-01T00:00:01.000Z', undefined],
      ['assistant', '1970-01-01T00:00:02.000Z', 'old-model'],
    ]);
    expect(out.messages[1]?.blocks.map((b) => [b.kind, b.toolName, b.text])).toEqual([
      ['tool_call', 'ls', '{"path":"."}'],
      ['tool_result', 'ls', 'a.ts'],
      ['text', undefined, 'one file'],
    ]);
    expect(out.messages[1]?.usage).toMatchObject({ inputTokens: 5, outputTokens: 7 });
  });

  it('reads parts kept under session/part/<sessionID>/<messageID>', () => {
    const info = put('session/info/ses_mid.json', { id: 'ses_mid', time: { created: 1 } });
    put('session/message/ses_mid/msg_a.json', { id: 'msg_a', role: 'user', time: { created: 5 } });
    put('session/part/ses_mid/msg_a/prt_1.json', { id: 'prt_1', type: 'text', text: 'hello there' });
    const out = parseLegacySession(info);
    expect(out.messages.map((m) => m.blocks.map((b) => b.text))).toEqual([['hello there']]);
  });
});

describe('opencode: message and part files', () => {
  it('explains message and part files of every JSON layout as read with their session', () => {
    for (const rel of [
      'storage/message/ses_1/msg_1.json',
      'storage/part/msg_1/prt_1.json',
      'storage/session/message/ses_1/msg_1.json',
      'storage/session/part/ses_1/msg_1/prt_1.json',
    ]) {
      expect(opencodeAdapter.explain?.(join('/home/u/.local/share/opencode', rel))).toMatch(/read with its session/);
    }
    expect(opencodeAdapter.explain?.('/home/u/notes/message/a.json')).toBeUndefined();
  });
});
