// Test helper: reads a real Claude Code fixture session into the plain "role: text" rendering the
// history index and the logbook hand to sub-calls (a few lines of JSON reading, no adapter).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real');

export interface FixtureMessage {
  id: string;
  role: string;
  timestamp?: string;
  text: string;
}

export function readClaudeFixture(relative: string): FixtureMessage[] {
  const messages: FixtureMessage[] = [];
  for (const line of readFileSync(resolve(FIXTURES, relative), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let record: { type?: string; uuid?: string; timestamp?: string; message?: { role?: string; content?: unknown } };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const message = record.message;
    if (!message || (record.type !== 'user' && record.type !== 'assistant')) continue;
    const parts: string[] = [];
    if (typeof message.content === 'string') parts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content as Array<Record<string, unknown>>) {
        if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
        else if (block.type === 'tool_use') parts.push(`[tool ${String(block.name)} ${JSON.stringify(block.input)}]`);
      }
    }
    const text = parts.join('\n').trim();
    if (!text) continue;
    messages.push({
      id: record.uuid ?? String(messages.length),
      role: message.role ?? record.type,
      ...(record.timestamp ? { timestamp: record.timestamp } : {}),
      text,
    });
  }
  return messages;
}

export function renderSegment(messages: readonly FixtureMessage[]): string {
  return messages.map((m) => `${m.role}: ${m.text}`).join('\n\n');
}
