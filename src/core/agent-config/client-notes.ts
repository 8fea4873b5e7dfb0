// Owns what a person must still do after strata writes a client's configuration: the approvals and trust
// each client asks for before it runs a new MCP server or hook (printed by `mcp config --write` and
// `hook install`, and written up per client in docs/agents.md).
import type { AgentClient } from './clients.js';

const PATH_NOTE = 'the hooks run `strata`: it must be on the PATH the client sees (else they fail with exit 127)';

const MCP_NOTES: Partial<Record<AgentClient, string[]>> = {
  'claude-code': [
    'Claude Code asks to approve a project .mcp.json server the first time it starts in this folder ' +
      '(or add it for every project: `claude mcp add --scope user strata -- strata mcp`)',
  ],
  codex: [
    'Codex starts MCP servers with a filtered environment: STRATA_HOME and XDG_DATA_HOME are passed in `env` ' +
      'when set now; `strata mcp --check` prints the store the server opens',
  ],
  gemini: ['Gemini CLI starts MCP servers only in a trusted folder: trust the project folder first'],
};

const HOOK_NOTES: Partial<Record<AgentClient, string[]>> = {
  'claude-code': [PATH_NOTE, 'Claude Code lists the new hooks under /hooks; review them there'],
  codex: [
    PATH_NOTE,
    'Codex runs only hooks you have trusted, and `codex exec` skips untrusted ones without a word: start ' +
      '`codex` once in the project and approve the strata hooks',
  ],
  gemini: [PATH_NOTE, 'Gemini CLI runs hooks only in a trusted folder: trust the project folder first'],
  cursor: [PATH_NOTE],
  opencode: ['OpenCode loads the plugin at its next start; it runs `strata`, which must be on its PATH'],
};

/** What to do next after writing strata's MCP server entry for `client` (empty when nothing). */
export function mcpConfigNotes(client: AgentClient): string[] {
  return MCP_NOTES[client] ?? [];
}

/** What to do next after installing strata's hooks for `client` (empty when nothing). */
export function hookInstallNotes(client: AgentClient): string[] {
  return HOOK_NOTES[client] ?? [];
}
