// Text a person typed while Claude Code was busy is written as an `attachment` record of type `queued_command`
// (no `user` line follows): it is kept as a prompt; queued task notifications and other origins as context.
import { describe, expect, it } from 'vitest';
import type { LineRecord } from '../types.js';
import { parseClaudeCodeLines } from './parser.js';

const SID = '44444444-5555-6666-7777-888888888888';
const PATH = `/nonexistent/projects/-work/${SID}.jsonl`;
const attachment = (uuid: string, attachment: object) =>
  JSON.stringify({
    type: 'attachment',
    uuid,
    sessionId: SID,
    cwd: '/w',
    timestamp: '2026-11-01T00:00:00Z',
    attachment,
  });
const parse = (texts: string[]) => {
  const lines: LineRecord[] = texts.map((text, i) => ({ text, line: i + 1 }));
  return parseClaudeCodeLines(lines, { path: PATH });
};

describe('claude-code: queued commands', () => {
  it('keeps a queued human prompt as a prompt and other queued commands as context', () => {
    const out = parse([
      attachment('q1', {
        type: 'queued_command',
        commandMode: 'prompt',
        origin: { kind: 'human' },
        prompt: 'also fix X',
      }),
      attachment('q2', { type: 'queued_command', prompt: [{ type: 'text', text: 'and Y' }] }),
      attachment('q3', {
        type: 'queued_command',
        commandMode: 'task-notification',
        prompt: '<task-notification><summary>Done</summary></task-notification>',
      }),
      attachment('q4', { type: 'queued_command', commandMode: 'prompt', origin: { kind: 'peer' }, prompt: 'hi' }),
      attachment('a5', { type: 'task_reminder', content: [] }),
    ]);
    expect(out.messages.map((m) => [m.key, m.role, m.kind, m.blocks.map((b) => b.text).join('|')])).toEqual([
      ['q1', 'user', 'prompt', 'also fix X'],
      ['q2', 'user', 'prompt', 'and Y'],
      ['q3', 'user', 'meta', '<task-notification><summary>Done</summary></task-notification>'],
      ['q4', 'user', 'meta', 'hi'],
    ]);
    expect(out.messages[0]?.meta).toMatchObject({ queuedCommand: true });
    expect(out.sessions.map((s) => s.key)).toEqual([SID]);
    expect(out.skipped).toEqual({ attachment: 1 });
  });
});
