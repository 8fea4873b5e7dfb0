// Owns the shapes of Cline / Roo Code / Kilo Code task files, read defensively: the API history (an array
// of Anthropic-style messages), the UI messages (timestamps by history index) and the task metadata.
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

export interface UiTimes {
  /** History index → epoch ms of the first UI message written for it. */
  byIndex: Map<number, number>;
  first?: number;
}

/**
 * UI message `conversationHistoryIndex` k belongs to history message k + 1 (the task itself is at -1):
 * the first UI message of each index dates that history message.
 */
export function uiTimes(value: unknown): UiTimes {
  const times: UiTimes = { byIndex: new Map() };
  if (!Array.isArray(value)) return times;
  for (const m of value) {
    if (!isObject(m)) continue;
    const ts = num(m.ts);
    if (ts === undefined) continue;
    times.first ??= ts;
    const index = num(m.conversationHistoryIndex);
    if (index !== undefined && !times.byIndex.has(index + 1)) times.byIndex.set(index + 1, ts);
  }
  return times;
}

/** Model ids used, from `task_metadata.json` (`model_usage[].model_id`). */
export function metadataModels(value: unknown): string[] {
  if (!isObject(value) || !Array.isArray(value.model_usage)) return [];
  const models = new Set<string>();
  for (const u of value.model_usage) if (isObject(u) && str(u.model_id)) models.add(str(u.model_id) as string);
  return [...models];
}

/** The working folder named in an injected `<environment_details>` block (Cline and Roo wordings). */
export function cwdOfEnvironment(text: string): string | undefined {
  const m = /# Current (?:Working|Workspace) Directory \(([^)\n]+)\)/.exec(text);
  return m?.[1]?.trim() || undefined;
}

export function isoOf(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
