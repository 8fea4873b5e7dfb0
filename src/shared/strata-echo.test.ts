import { describe, expect, it } from 'vitest';
import { isStrataContext, isStrataToolName, strataEchoNoise } from './strata-echo.js';

describe('strata echoes', () => {
  it("recognises strata's tools in every client's naming, and nothing else", () => {
    for (const name of [
      'mcp__strata__search',
      'mcp__plugin_strata_strata__read',
      'strata__sessions',
      'mcp_strata_logbook',
      'strata_pack_search',
    ])
      expect(isStrataToolName(name), name).toBe(true);
    for (const name of ['search', 'mcp__github__search', 'strata_deploy', 'mcp__strata2__search', 'Bash'])
      expect(isStrataToolName(name), name).toBe(false);
  });

  it('recognises the injected context, bare or inside a client wrapper', () => {
    expect(isStrataContext('# Project logbook (strata)\nProject logbook: /a')).toBe(true);
    expect(isStrataContext('<hook_context># Latest sessions of this project (strata)\n- x</hook_context>')).toBe(true);
    expect(isStrataContext('please read # Project logbook (strata)')).toBe(false);
  });

  it('marks calls by their server when the name is bare', () => {
    expect(strataEchoNoise({ kind: 'tool_call', text: '{}', toolName: 'search', meta: { mcpServer: 'strata' } })).toBe(
      'strata',
    );
    expect(strataEchoNoise({ kind: 'tool_call', text: '{}', toolName: 'search' })).toBeUndefined();
  });
});
