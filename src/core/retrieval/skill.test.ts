// The Claude Code plugin in plugin/ and its marketplace file: valid JSON, hooks that run `strata hook`,
// the MCP server registered, and the retrieval skill and agent identical to what `strata skill` writes.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillFiles } from './skill.js';

const ROOT = process.cwd();
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

describe('Claude Code plugin', () => {
  it('is listed by the marketplace file at the repository root', () => {
    const market = json('.claude-plugin/marketplace.json');
    expect(market.name).toBe('strata');
    expect(market.owner.name).toBeTruthy();
    const entry = market.plugins.find((p: { name: string }) => p.name === 'strata');
    expect(entry.source).toBe('./plugin');
    expect(existsSync(join(ROOT, entry.source, '.claude-plugin/plugin.json'))).toBe(true);
  });

  it('has a manifest whose version is the package version, with an author (validate --strict asks for one)', () => {
    expect(json('plugin/.claude-plugin/plugin.json')).toMatchObject({
      name: 'strata',
      version: json('package.json').version,
      author: { name: 'strata' },
    });
  });

  it('runs strata hook ingest at session end and before compaction, strata hook context at session start', () => {
    const { hooks } = json('plugin/hooks/hooks.json');
    const commands = (event: string) =>
      hooks[event].flatMap((m: { hooks: { type: string; command: string }[] }) =>
        m.hooks.map((h) => `${h.type}:${h.command}`),
      );
    expect(commands('SessionEnd')).toEqual(['command:strata hook ingest']);
    expect(commands('PreCompact')).toEqual(['command:strata hook ingest']);
    expect(commands('SessionStart')).toEqual(['command:strata hook context']);
  });

  it('registers the MCP server', () => {
    expect(json('plugin/.mcp.json')).toEqual({ mcpServers: { strata: { command: 'strata', args: ['mcp'] } } });
  });

  it('ships the retrieval skill and agent exactly as `strata skill install` writes them', () => {
    for (const file of skillFiles()) {
      const path = join(ROOT, 'plugin', file.path.replace(/^\.claude\//, ''));
      expect(readFileSync(path, 'utf8'), path).toBe(file.content);
    }
  });
});
