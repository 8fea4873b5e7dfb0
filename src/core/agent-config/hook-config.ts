// Owns registering `strata hook ingest` and `strata hook context` in each client's hooks file, with the
// client's own event names and entry shape. Strata's entries are recognised by their command (`strata
// hook ...`): an install replaces them and keeps everything else; an entry already as wanted stays put.
import type { AgentClient } from './clients.js';
import { arrayAt, isStrataCommand, objectAt, parseJsonObject, printJsonLike, type JsonObject } from './json-merge.js';
import { OPENCODE_PLUGIN } from './opencode-plugin.js';

interface HookSpec {
  event: string;
  command: string;
  matcher?: string;
}

const ingest = (client: AgentClient) => `strata hook ingest --client ${client}`;
const context = (client: AgentClient) => `strata hook context --client ${client}`;

/** Which events run which command, in each client's naming. */
function hookSpecs(client: AgentClient): HookSpec[] {
  switch (client) {
    case 'claude-code':
      return [
        { event: 'SessionStart', command: context(client), matcher: 'startup|resume|clear|compact' },
        { event: 'SessionEnd', command: ingest(client) },
        { event: 'PreCompact', command: ingest(client) },
      ];
    case 'codex':
      return [
        { event: 'SessionStart', command: context(client), matcher: 'startup|resume' },
        { event: 'Stop', command: ingest(client) },
        { event: 'PreCompact', command: ingest(client) },
      ];
    case 'gemini':
      return [
        { event: 'SessionStart', command: context(client) },
        { event: 'SessionEnd', command: ingest(client) },
        { event: 'PreCompress', command: ingest(client) },
      ];
    case 'cursor':
      return [
        { event: 'sessionStart', command: context(client) },
        { event: 'sessionEnd', command: ingest(client) },
        { event: 'preCompact', command: ingest(client) },
        { event: 'stop', command: ingest(client) },
      ];
    case 'opencode':
      return [];
  }
}

/** One hook entry as the client writes it (Gemini counts timeouts in milliseconds, the others in seconds). */
function hookEntry(client: AgentClient, spec: HookSpec): JsonObject {
  const seconds = spec.command.includes(' context ') ? 10 : 30;
  if (client === 'cursor') return { command: spec.command, timeout: seconds };
  if (client === 'gemini')
    return {
      name: spec.command.includes(' context ') ? 'strata-context' : 'strata-ingest',
      type: 'command',
      command: spec.command,
      timeout: seconds * 1000,
    };
  return { type: 'command', command: spec.command, timeout: seconds };
}

/** Removes strata's entries from one event's list (matcher groups, or Cursor's flat entries). */
function withoutStrata(list: unknown[], flat: boolean): unknown[] {
  if (flat) return list.filter((entry) => !isStrataCommand((entry as JsonObject | null)?.command));
  const kept: unknown[] = [];
  for (const group of list) {
    const hooks = (group as JsonObject | null)?.hooks;
    if (!Array.isArray(hooks)) {
      kept.push(group);
      continue;
    }
    const rest = hooks.filter((h) => !isStrataCommand((h as JsonObject | null)?.command));
    if (rest.length === hooks.length) kept.push(group);
    else if (rest.length > 0) kept.push({ ...(group as JsonObject), hooks: rest });
  }
  return kept;
}

/** The client's hooks file with strata's hooks registered (other hooks and settings kept). */
export function mergeHookConfig(client: AgentClient, current: string | undefined, path: string): string {
  if (client === 'opencode') return OPENCODE_PLUGIN;
  const doc = parseJsonObject(current, path);
  if (client === 'cursor' && doc.version === undefined) doc.version = 1;
  const hooks = objectAt(doc, 'hooks', path);
  const flat = client === 'cursor';
  for (const spec of hookSpecs(client)) {
    const entry = hookEntry(client, spec);
    const wanted = flat ? entry : { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [entry] };
    const existing = arrayAt(hooks, spec.event, path);
    const ours = existing.filter((e) => JSON.stringify(withoutStrata([e], flat)) !== JSON.stringify([e]));
    if (ours.length === 1 && JSON.stringify(ours[0]) === JSON.stringify(wanted)) continue;
    hooks[spec.event] = [...withoutStrata(existing, flat), wanted];
  }
  if (current !== undefined && JSON.stringify(parseJsonObject(current, path)) === JSON.stringify(doc)) return current;
  return printJsonLike(doc, current);
}
