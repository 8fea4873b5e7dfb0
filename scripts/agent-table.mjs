// Writes the README's agent table from the built adapters (run `npm run build` first).
import { readFileSync, writeFileSync } from 'node:fs';
import { withAgentTable } from '../dist/sources/agent-table.js';
import { ADAPTERS } from '../dist/sources/registry.js';

const path = new URL('../README.md', import.meta.url);
const next = withAgentTable(readFileSync(path, 'utf8'), ADAPTERS);
if (next === undefined) {
  console.error('README.md has no agent table markers');
  process.exit(1);
}
writeFileSync(path, next);
