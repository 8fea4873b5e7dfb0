// Writes the README's agent list and docs/agent-formats.md's agent table from the built adapters
// (run `npm run build` first).
import { readFileSync, writeFileSync } from 'node:fs';
import { renderAgentList, renderAgentTable, withAgentBlock } from '../dist/sources/agent-table.js';
import { ADAPTERS } from '../dist/sources/registry.js';

for (const [file, block] of [
  ['../README.md', renderAgentList(ADAPTERS)],
  ['../docs/agent-formats.md', renderAgentTable(ADAPTERS)],
]) {
  const path = new URL(file, import.meta.url);
  const next = withAgentBlock(readFileSync(path, 'utf8'), block);
  if (next === undefined) {
    console.error(`${file.slice(3)} has no agent table markers`);
    process.exit(1);
  }
  writeFileSync(path, next);
}
