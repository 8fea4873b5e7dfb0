// Owns recognising strata's own output inside a transcript: calls of its MCP tools (with their results) and
// the context its session-start hook injects. Such blocks are kept, marked with the noise class `strata`,
// so search, titles, the logbook and blame leave them out unless asked (`--in noise`).

/** The noise class of a block that is strata's own output. */
export const STRATA_NOISE = 'strata';

/** Headings every session-start context strata injects begins with (the hook writes them, see hooks/). */
export const STRATA_LOGBOOK_HEADING = '# Project logbook (strata)';
export const STRATA_SESSIONS_HEADING = '# Latest sessions of this project (strata)';

/** strata's MCP tools (src/mcp/tools). */
export const STRATA_MCP_TOOLS = [
  'search',
  'read',
  'sessions',
  'logbook',
  'pack_search',
  'pack_get',
  'code_map',
  'code_symbol',
] as const;

const TOOLS = STRATA_MCP_TOOLS.join('|');
/**
 * How each client names a tool of the MCP server `strata`: Claude Code `mcp__strata__search` (as a plugin
 * `mcp__plugin_strata_strata__search`), Codex `mcp__strata__search` (older `strata__search`), Gemini CLI
 * `mcp_strata_search` or `strata__search`, OpenCode `strata_search`.
 */
const TOOL_NAME = new RegExp(`^(?:mcp__(?:plugin_strata_)?strata__|strata__?|mcp_strata_)(?:${TOOLS})$`);

export function isStrataToolName(name: string | null | undefined): boolean {
  return typeof name === 'string' && TOOL_NAME.test(name);
}

/** Wrappers a client puts around hook output before it reaches the transcript. */
const WRAPPER = /^(?:<(?:hook_context|session-start-hook|system-reminder)(?:\s[^<>]{0,200})?>\s*)+/;

/** True when `text` is context strata's session-start hook injected (possibly inside a client's wrapper). */
export function isStrataContext(text: string): boolean {
  const body = text.trimStart().replace(WRAPPER, '');
  return body.startsWith(STRATA_LOGBOOK_HEADING) || body.startsWith(STRATA_SESSIONS_HEADING);
}

interface EchoCandidate {
  kind: string;
  text: string;
  toolName?: string | null | undefined;
  meta?: Record<string, unknown> | undefined;
}

/** `STRATA_NOISE` when the block is strata's own output, else undefined. */
export function strataEchoNoise(block: EchoCandidate): typeof STRATA_NOISE | undefined {
  if (block.kind === 'tool_call' || block.kind === 'tool_result') {
    const server = block.meta?.mcpServer ?? block.meta?.serverName;
    return isStrataToolName(block.toolName) || server === 'strata' ? STRATA_NOISE : undefined;
  }
  if (block.kind === 'text' || block.kind === 'system') return isStrataContext(block.text) ? STRATA_NOISE : undefined;
  return undefined;
}
