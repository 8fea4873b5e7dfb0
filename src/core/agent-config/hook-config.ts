// Owns registering `strata hook ingest` and `strata hook context` in each client's hooks file, with the
// client's own event names and entry shape. Strata's entries are recognised by their command (`strata
// hook ingest|context`, exactly as strata writes them): an install replaces them and keeps everything
// else, byte for byte; an entry already as wanted stays put.
import type { AgentClient } from './clients.js';
import type { Node } from 'jsonc-parser';
import {
  editJson,
  isStrataCommand,
  newJsonText,
  nodeAt,
  parseJsonRoot,
  valueOf,
  type JsonObject,
} from './json-edit.js';
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

/** The last value of `key` in an object node (as JSON.parse reads a repeated key). */
function propertyValue(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined;
  return (node.children ?? []).filter((p) => p.children?.[0]?.value === key).at(-1)?.children?.[1];
}

interface StrataItem {
  index: number;
  /** Indexes of strata's hooks inside a matcher group that also holds other hooks; undefined: the whole item. */
  hooks?: number[];
}

/** Strata's items in one event's list (Cursor's flat entries, or hooks inside matcher groups). */
function strataItems(list: Node, flat: boolean): StrataItem[] {
  const found: StrataItem[] = [];
  for (const [index, item] of (list.children ?? []).entries()) {
    if (flat) {
      if (isStrataCommand(valueOf(propertyValue(item, 'command')))) found.push({ index });
      continue;
    }
    const hooks = propertyValue(item, 'hooks');
    if (hooks?.type !== 'array') continue;
    const children = hooks.children ?? [];
    const ours = children.flatMap((h, i) => (isStrataCommand(valueOf(propertyValue(h, 'command'))) ? [i] : []));
    if (ours.length === children.length && ours.length > 0) found.push({ index });
    else if (ours.length > 0) found.push({ index, hooks: ours });
  }
  return found;
}

/** The client's hooks file with strata's hooks registered; only strata's own entries are edited in the text. */
export function mergeHookConfig(client: AgentClient, current: string | undefined, path: string): string {
  if (client === 'opencode') return OPENCODE_PLUGIN;
  const flat = client === 'cursor';
  const wanted = (spec: HookSpec): JsonObject => {
    const entry = hookEntry(client, spec);
    return flat ? entry : { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [entry] };
  };
  if (current === undefined || current.trim() === '') {
    const hooks: JsonObject = {};
    for (const spec of hookSpecs(client)) hooks[spec.event] = [wanted(spec)];
    return newJsonText(flat ? { version: 1, hooks } : { hooks });
  }
  let text = current;
  if (flat && propertyValue(parseJsonRoot(text, path), 'version') === undefined) text = editJson(text, ['version'], 1);
  for (const spec of hookSpecs(client)) {
    const root = parseJsonRoot(text, path);
    nodeAt(root, ['hooks'], path, 'object');
    const list = nodeAt(root, ['hooks', spec.event], path, 'array');
    if (!list) {
      text = editJson(text, ['hooks', spec.event], [wanted(spec)]);
      continue;
    }
    const ours = strataItems(list, flat);
    const only = ours.length === 1 && ours[0]!.hooks === undefined ? list.children![ours[0]!.index] : undefined;
    if (only && JSON.stringify(valueOf(only)) === JSON.stringify(wanted(spec))) continue;
    // From the last item back, so that the indexes still to edit stay valid.
    for (const item of ours.reverse()) {
      if (item.hooks === undefined) text = editJson(text, ['hooks', spec.event, item.index], undefined);
      else
        for (const h of item.hooks.reverse())
          text = editJson(text, ['hooks', spec.event, item.index, 'hooks', h], undefined);
    }
    text = editJson(text, ['hooks', spec.event, -1], wanted(spec), true);
  }
  return text;
}
