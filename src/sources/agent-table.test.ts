// The README's agent list and docs/agent-formats.md's table are the adapters' own description: regenerate
// them with `npm run agent-table`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../test/support/paths.js';
import { renderAgentList, renderAgentTable, withAgentBlock } from './agent-table.js';
import { ADAPTERS } from './registry.js';

const read = (file: string) => readFileSync(join(REPO, file), 'utf8');

describe('agent tables', () => {
  it('the README lists every registered adapter, as rendered from them', () => {
    const readme = read('README.md');
    expect(readme).toContain(renderAgentList(ADAPTERS));
    expect(withAgentBlock(readme, renderAgentList(ADAPTERS))).toBe(readme);
    for (const a of ADAPTERS) expect(readme).toContain(`${a.displayName} (\`${a.agent}\`)`);
  });

  it('docs/agent-formats.md has the full table, a row per adapter saying where it looks and what it reads', () => {
    const doc = read('docs/agent-formats.md');
    expect(withAgentBlock(doc, renderAgentTable(ADAPTERS))).toBe(doc);
    const table = renderAgentTable(ADAPTERS).split('\n');
    expect(table).toHaveLength(ADAPTERS.length + 4);
    for (const a of ADAPTERS) {
      expect(a.locations.length).toBeGreaterThan(5);
      expect(a.formats.length).toBeGreaterThan(0);
      expect(table.some((row) => row.startsWith(`| ${a.displayName} | \`${a.agent}\` |`))).toBe(true);
    }
  });

  it('counts the agents in the README intro as the list does (an export format is not an agent)', () => {
    const agents = ADAPTERS.filter((a) => !/export/i.test(a.displayName))
      .map((a) => a.displayName.split(' / ').length)
      .reduce((sum, n) => sum + n, 0);
    expect(read('README.md')).toMatch(new RegExp(`histories that ${agents} coding\\s+agents`));
  });
});
