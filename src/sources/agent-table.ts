// Owns the tables of supported agents, rendered from the adapters (one source of truth): the README's short
// list and docs/agent-formats.md's full table. `node scripts/agent-table.mjs` writes both; a test checks them.
import type { SourceAdapter } from './types.js';

export const TABLE_START = '<!-- agents:start (generated from src/sources by scripts/agent-table.mjs) -->';
export const TABLE_END = '<!-- agents:end -->';

/** The full table: where each adapter looks and what it reads. */
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

/** The README's short form: each agent with the name `--agent` takes. */
export function renderAgentList(adapters: readonly SourceAdapter[]): string {
  const items = adapters.map((a) => `${a.displayName} (\`${a.agent}\`)`);
  return [TABLE_START, `${items.join(' · ')}.`, TABLE_END].join('\n');
}

/** `text` with its generated block replaced by `block` (or undefined when the markers are missing). */
export function withAgentBlock(text: string, block: string): string | undefined {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return text.slice(0, start) + block + text.slice(end + TABLE_END.length);
}
