// Owns where each supported client keeps its MCP and hook configuration (from its own documentation):
// Claude Code (.mcp.json in the project, ~/.claude/settings.json), Codex ($CODEX_HOME/config.toml and
// hooks.json), Gemini CLI (~/.gemini/settings.json), Cursor (~/.cursor/mcp.json and hooks.json) and
// OpenCode (~/.config/opencode/opencode.json and a plugin file).
import { join } from 'node:path';
import { homeDir, type Env } from '../../shared/paths.js';

export const AGENT_CLIENTS = ['claude-code', 'codex', 'gemini', 'cursor', 'opencode'] as const;
export type AgentClient = (typeof AGENT_CLIENTS)[number];

export function isAgentClient(value: string): value is AgentClient {
  return (AGENT_CLIENTS as readonly string[]).includes(value);
}

function codexHome(env: Env): string {
  return env.CODEX_HOME || join(homeDir(env), '.codex');
}

function openCodeConfigDir(env: Env): string {
  return join(env.XDG_CONFIG_HOME || join(homeDir(env), '.config'), 'opencode');
}

/** The file `strata mcp config --write` merges into. */
export function mcpConfigPath(client: AgentClient, env: Env, cwd: string): string {
  switch (client) {
    case 'claude-code':
      return join(cwd, '.mcp.json');
    case 'codex':
      return join(codexHome(env), 'config.toml');
    case 'gemini':
      return join(homeDir(env), '.gemini', 'settings.json');
    case 'cursor':
      return join(homeDir(env), '.cursor', 'mcp.json');
    case 'opencode':
      return join(openCodeConfigDir(env), 'opencode.json');
  }
}

/** The file `strata hook install` merges into (OpenCode: the plugin file strata owns). */
export function hookConfigPath(client: AgentClient, env: Env): string {
  switch (client) {
    case 'claude-code':
      return join(env.CLAUDE_CONFIG_DIR?.split(',')[0]?.trim() || join(homeDir(env), '.claude'), 'settings.json');
    case 'codex':
      return join(codexHome(env), 'hooks.json');
    case 'gemini':
      return join(homeDir(env), '.gemini', 'settings.json');
    case 'cursor':
      return join(homeDir(env), '.cursor', 'hooks.json');
    case 'opencode':
      return join(openCodeConfigDir(env), 'plugins', 'strata.js');
  }
}
