// Owns the MCP server entry for each client: the exact snippet for its configuration file (TOML for
// Codex, JSON for the others) and the merge of that entry into an existing file.
import { parse as parseToml } from 'smol-toml';
import { StrataError } from '../../shared/errors.js';
import type { AgentClient } from './clients.js';
import type { Env } from '../../shared/paths.js';
import { editJson, newJsonText, nodeAt, parseJsonRoot, valueOf } from './json-edit.js';
import { setTomlTableKeys } from './toml-table-edit.js';

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

const inlineTable = (vars: Record<string, string>) =>
  `{ ${Object.entries(vars)
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join(', ')} }`;

function tomlSnippet(vars: Record<string, string>): string {
  return (
    `[mcp_servers.${SERVER_NAME}]\ncommand = "${COMMAND}"\nargs = ` +
    `[${ARGS.map((a) => `"${a}"`).join(', ')}]\n` +
    (Object.keys(vars).length > 0 ? `env = ${inlineTable(vars)}\n` : '')
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

/** strata's command and args, and an `env` holding `vars` (the user's other variables may be there too). */
function sameEntry(value: unknown, vars: Record<string, string>): boolean {
  const v = value as { command?: unknown; args?: unknown; env?: Record<string, unknown> } | undefined;
  return (
    v?.command === COMMAND &&
    JSON.stringify(v?.args) === JSON.stringify(ARGS) &&
    Object.entries(vars).every(([k, value]) => v?.env?.[k] === value)
  );
}

/**
 * Codex: appends the table when absent; when it differs, sets only its `command` and `args` (its other keys,
 * comments and the rest of the file stay as written), and checks that the result parses to the entry.
 */
function mergeToml(current: string | undefined, path: string, vars: Record<string, string>): string {
  const text = current ?? '';
  const doc = parseTomlText(text, path);
  const servers = doc.mcp_servers as Record<string, unknown> | undefined;
  const existing = servers?.[SERVER_NAME] as { env?: Record<string, unknown> } | undefined;
  if (sameEntry(existing, vars)) return text;
  const snippet = tomlSnippet(vars);
  if (existing === undefined) return text === '' ? snippet : `${text}${text.endsWith('\n') ? '' : '\n'}\n${snippet}`;
  // The user's own variables stay; strata's store variables are added or updated.
  const env = { ...(existing.env as Record<string, string> | undefined), ...vars };
  const next = setTomlTableKeys(text, `mcp_servers.${SERVER_NAME}`, [
    ['command', JSON.stringify(COMMAND)],
    ['args', `[${ARGS.map((a) => JSON.stringify(a)).join(', ')}]`],
    ...(Object.keys(vars).length > 0 ? [['env', inlineTable(env)] as [string, string]] : []),
  ]);
  if (next === undefined)
    throw new StrataError(
      'CONFIG',
      `${path} defines mcp_servers.${SERVER_NAME} in a form strata does not rewrite; edit it by hand (see \`strata ` +
        `mcp config --client codex\`)`,
    );
  const after = parseTomlText(next, path);
  const entry = (after.mcp_servers as Record<string, unknown> | undefined)?.[SERVER_NAME] as Record<string, unknown>;
  // Everything but strata's command and args must read the same as before.
  const rest = (value: Record<string, unknown>) =>
    JSON.stringify(value, (key, v: unknown) =>
      typeof v === 'bigint'
        ? String(v)
        : key === SERVER_NAME
          ? {
              ...(v as object),
              command: 0,
              args: 0,
              env: Object.keys(vars).length > 0 ? 0 : (v as { env?: unknown }).env,
            }
          : v,
    );
  if (!sameEntry(entry, vars) || rest(after) !== rest(doc))
    throw new StrataError('CONFIG', `could not merge the strata server into ${path}; left it unchanged`);
  return next;
}

/** The client's configuration file with strata's MCP server entry set (only that entry's text changes). */
export function mergeMcpConfig(client: AgentClient, current: string | undefined, path: string, env: Env = {}): string {
  if (client === 'codex') return mergeToml(current, path, storeEnv(env));
  const entry = mcpServerEntry(client);
  if (current === undefined || current.trim() === '') {
    const doc = { [serversKey(client)]: { [SERVER_NAME]: entry } };
    return newJsonText(
      client === 'opencode' && current === undefined ? { $schema: 'https://opencode.ai/config.json', ...doc } : doc,
    );
  }
  const root = parseJsonRoot(current, path);
  nodeAt(root, [serversKey(client)], path, 'object');
  const existing = valueOf(nodeAt(root, [serversKey(client), SERVER_NAME], path, 'object'));
  if (JSON.stringify(existing) === JSON.stringify(entry)) return current;
  return editJson(current, [serversKey(client), SERVER_NAME], entry);
}
