import { describe, expect, it } from 'vitest';
import { parseHookPayload } from './payload.js';

describe('parseHookPayload', () => {
  it('reads Claude Code, Codex and Gemini CLI payloads (snake_case, transcript may be null)', () => {
    expect(
      parseHookPayload('{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SessionEnd"}'),
    ).toEqual({
      event: 'SessionEnd',
      transcriptPath: '/t.jsonl',
      sessionId: 's1',
      cwd: '/p',
    });
    expect(
      parseHookPayload('{"session_id":"s2","transcript_path":null,"cwd":"/p","hook_event_name":"SessionStart"}'),
    ).toEqual({ event: 'SessionStart', sessionId: 's2', cwd: '/p' });
  });

  it("reads Cursor's conversation_id and first workspace root", () => {
    expect(
      parseHookPayload('{"conversation_id":"c1","hook_event_name":"sessionStart","workspace_roots":["/w1","/w2"]}'),
    ).toEqual({ event: 'sessionStart', sessionId: 'c1', cwd: '/w1' });
  });

  it('treats empty, non-JSON and non-object input as an empty payload', () => {
    for (const raw of ['', '   ', 'not json', '[1,2]', 'null', '"text"']) expect(parseHookPayload(raw)).toEqual({});
  });
});
