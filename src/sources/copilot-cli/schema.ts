// Owns the shapes of Copilot CLI files read defensively: the event envelope of `events.jsonl`, the
// top-level scalars of `workspace.yaml` (no YAML library: only `key: value` lines are needed), and the
// context Copilot appends to what a person typed.
import { readFileSync } from 'node:fs';
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

export interface CopilotEvent {
  type: string;
  id?: string;
  timestamp?: string;
  data: Json;
}

export function asEvent(value: unknown): CopilotEvent | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const event: CopilotEvent = { type: value.type, data: isObject(value.data) ? value.data : {} };
  if (str(value.id)) event.id = value.id as string;
  if (str(value.timestamp)) event.timestamp = value.timestamp as string;
  return event;
}

/** Top-level `key: value` scalars of a workspace.yaml (quotes removed); {} when unreadable. */
export function readWorkspaceYaml(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*):[ \t]+(.+?)\s*$/.exec(line);
    if (!m?.[1] || m[2] === undefined) continue;
    const raw = m[2];
    const quoted = /^(["'])(.*)\1$/.exec(raw);
    out[m[1]] = quoted?.[2] ?? raw;
  }
  return out;
}

/** What a person typed, without the `<current_datetime>` and `<reminder>` blocks Copilot appends. */
export function typedText(content: string): string {
  return content
    .replace(/<current_datetime>[\s\S]*?<\/current_datetime>/g, '')
    .replace(/<reminder>[\s\S]*?<\/reminder>/g, '')
    .trim();
}

/** Tool arguments: an object, or a JSON string parsed (kept as the string when it is not JSON). */
export function toolArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
