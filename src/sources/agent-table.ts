// Owns the README's table of supported agents, rendered from the adapters (one source of truth):
// `node scripts/agent-table.mjs` writes it between the README's markers, and a test checks it is current.
import type { SourceAdapter } from './types.js';

export const TABLE_START = '<!-- agents:start (generated from src/sources by scripts/agent-table.mjs) -->';
export const TABLE_END = '<!-- agents:end -->';

export function renderAgentTable(adapters: readonly SourceAdapter[]): string {
  const rows = adapters.map((a) => `| ${a.displayName} | \`${a.agent}\` | ${a.locations} | ${a.formats.join('; ')} |`);
  return [
    TABLE_START,
    '| agent | `--agent` | where strata looks | what it reads |',
    '|---|---|---|---|',
    ...rows,
    TABLE_END,
  ].join('\n');
}

/** The README text with its table replaced (or undefined when the markers are missing). */
export function withAgentTable(readme: string, adapters: readonly SourceAdapter[]): string | undefined {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(0, start) + renderAgentTable(adapters) + readme.slice(end + TABLE_END.length);
}
