// Owns the MCP server entry for each client: the exact snippet for its configuration file (TOML for
// Codex, JSON for the others) and the merge of that entry into an existing file.
import { parse as parseToml } from 'smol-toml';
import { StrataError } from '../../shared/errors.js';
import type { AgentClient } from './clients.js';
import type { Env } from '../../shared/paths.js';
import { objectAt, parseJsonObject, printJsonLike } from './json-merge.js';

const SERVER_NAME = 'strata';
const COMMAND = 'strata';
const ARGS = ['mcp'];

/** The value of strata's entry under the client's MCP servers key. */
function mcpServerEntry(client: AgentClient): Record<string, unknown> {
  if (client === 'opencode') return { type: 'local', command: [COMMAND, ...ARGS], enabled: true };
  return { command: COMMAND, args: ARGS };
}

const serversKey = (client: AgentClient) => (client === 'opencode' ? 'mcp' : 'mcpServers');

/**
 * Variables that choose the store, passed on explicitly: Codex starts MCP servers with a filtered
 * environment, so without them `strata mcp` would open the default store while the hooks write another.
 */
const STORE_VARS = ['STRATA_HOME', 'XDG_DATA_HOME'] as const;

/** The store variables set in `env` (none unless set and non-empty). */
export function storeEnv(env: Env = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of STORE_VARS) if (env[name]) out[name] = env[name]!;
  return out;
}

function tomlSnippet(vars: Record<string, string>): string {
  const entries = Object.entries(vars).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  return (
    `[mcp_servers.${SERVER_NAME}]\ncommand = "${COMMAND}"\nargs = ` +
    `[${ARGS.map((a) => `"${a}"`).join(', ')}]\n` +
    (entries.length > 0 ? `env = { ${entries.join(', ')} }\n` : '')
  );
}

/** The entry for `client`; `env`: the environment whose store variables Codex must pass on. */
export function mcpConfigSnippet(client: AgentClient, env: Env = {}): string {
  if (client === 'codex') return tomlSnippet(storeEnv(env));
  const doc: Record<string, unknown> = { [serversKey(client)]: { [SERVER_NAME]: mcpServerEntry(client) } };
  if (client === 'opencode')
    return JSON.stringify({ $schema: 'https://opencode.ai/config.json', ...doc }, null, 2) + '\n';
  return JSON.stringify(doc, null, 2) + '\n';
}

function parseTomlText(text: string, path: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new StrataError(
      'CONFIG',
      `cannot parse ${path} as TOML (${(error as Error).message.split('\n')[0]}); left it unchanged`,
    );
  }
}

function sameEntry(value: unknown, vars: Record<string, string>): boolean {
  const v = value as { command?: unknown; args?: unknown; env?: unknown } | undefined;
  const env = v?.env ?? {};
  return (
    v?.command === COMMAND &&
    JSON.stringify(v?.args) === JSON.stringify(ARGS) &&
    JSON.stringify(env) === JSON.stringify(vars)
  );
}

/**
 * Codex: appends the table when absent, replaces its header block in place when it differs (the rest of
 * the file, comments included, stays as written), and checks that the result parses to the entry.
 */
function mergeToml(current: string | undefined, path: string, vars: Record<string, string>): string {
  const text = current ?? '';
  const TOML_SNIPPET = tomlSnippet(vars);
  const doc = parseTomlText(text, path);
  const servers = doc.mcp_servers as Record<string, unknown> | undefined;
  if (sameEntry(servers?.[SERVER_NAME], vars)) return text;
  let next: string;
  if (servers?.[SERVER_NAME] === undefined) {
    next = text === '' ? TOML_SNIPPET : `${text}${text.endsWith('\n') ? '' : '\n'}\n${TOML_SNIPPET}`;
  } else {
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.trim() === `[mcp_servers.${SERVER_NAME}]`);
    if (start < 0)
      throw new StrataError(
        'CONFIG',
        `${path} defines mcp_servers.${SERVER_NAME} in a form strata does not rewrite; edit it by hand (see \`strata ` +
          `mcp config --client codex\`)`,
      );
    let end = start + 1;
    while (end < lines.length && !/^\s*\[/.test(lines[end]!)) end++;
    // Comments and blank lines just above the next table belong to it.
    while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end--;
    next = [...lines.slice(0, start), ...TOML_SNIPPET.trimEnd().split('\n'), ...lines.slice(end)].join('\n');
    if (text.endsWith('\n') && !next.endsWith('\n')) next += '\n';
  }
  const merged = (parseTomlText(next, path).mcp_servers as Record<string, unknown> | undefined)?.[SERVER_NAME];
  if (!sameEntry(merged, vars)) {
    throw new StrataError('CONFIG', `could not merge the strata server into ${path}; left it unchanged`);
  }
  return next;
}

/** The client's configuration file with strata's MCP server entry set (other content kept). */
export function mergeMcpConfig(client: AgentClient, current: string | undefined, path: string, env: Env = {}): string {
  if (client === 'codex') return mergeToml(current, path, storeEnv(env));
  const doc = parseJsonObject(current, path);
  if (client === 'opencode' && current === undefined) doc.$schema = 'https://opencode.ai/config.json';
  const servers = objectAt(doc, serversKey(client), path);
  if (JSON.stringify(servers[SERVER_NAME]) === JSON.stringify(mcpServerEntry(client)) && current !== undefined)
    return current;
  servers[SERVER_NAME] = mcpServerEntry(client);
  return printJsonLike(doc, current);
}
