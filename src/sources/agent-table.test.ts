// The README's agent table is the adapters' own description: regenerate it with `node scripts/agent-table.mjs`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../test/support/paths.js';
import { renderAgentTable, withAgentTable } from './agent-table.js';
import { ADAPTERS } from './registry.js';

describe('README agent table', () => {
  it('is the one rendered from the registered adapters', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain(renderAgentTable(ADAPTERS));
    expect(withAgentTable(readme, ADAPTERS)).toBe(readme);
  });

  it('has a row for every adapter, each saying where it looks and what it reads', () => {
    const table = renderAgentTable(ADAPTERS).split('\n');
    expect(table).toHaveLength(ADAPTERS.length + 4);
    for (const a of ADAPTERS) {
      expect(a.locations.length).toBeGreaterThan(5);
      expect(a.formats.length).toBeGreaterThan(0);
      expect(table.some((row) => row.startsWith(`| ${a.displayName} | \`${a.agent}\` |`))).toBe(true);
    }
  });

  it('counts the agents in the README intro as the table does (an export format is not an agent)', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const agents = ADAPTERS.filter((a) => !/export/i.test(a.displayName))
      .map((a) => a.displayName.split(' / ').length)
      .reduce((sum, n) => sum + n, 0);
    expect(readme).toMatch(new RegExp(`histories that ${agents} coding\\s+agents`));
  });
});
