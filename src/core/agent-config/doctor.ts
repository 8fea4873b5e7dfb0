// Owns `strata doctor`'s findings: for each client installed on this machine (its configuration folder
// exists), whether strata's MCP server and hooks are configured, whether `strata` is on the PATH they run
// it with, whether the server would open the store the hooks write, and whether the project folder is
// trusted where the client asks for trust; each problem with what to do. Reads files only.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { homeDir, type Env } from '../../shared/paths.js';
import { AGENT_CLIENTS, hookConfigPath, mcpConfigPath, type AgentClient } from './clients.js';
import { storeEnv } from './mcp-config.js';

export interface DoctorCheck {
  name: 'mcp' | 'hooks' | 'store' | 'trust';
  ok: boolean;
  detail: string;
  /** What to do when not ok. */
  fix?: string;
}

export interface ClientReport {
  client: AgentClient;
  checks: DoctorCheck[];
}

export interface DoctorReport {
  store: string;
  /** Where `strata` resolves on PATH, or null. */
  command: string | null;
  clients: ClientReport[];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readObject(path: string, toml = false): Record<string, unknown> | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    const value: unknown = toml ? parseToml(text) : JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>(
    (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
    value,
  );

/** The `strata` executable on PATH, or null. */
export function findOnPath(env: Env, name = 'strata'): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return null;
}

function mcpEntry(client: AgentClient, env: Env, cwd: string): { entry: unknown; where: string } {
  const path = mcpConfigPath(client, env, cwd);
  if (client === 'codex') return { entry: at(readObject(path, true), 'mcp_servers', 'strata'), where: path };
  if (client === 'opencode') return { entry: at(readObject(path), 'mcp', 'strata'), where: path };
  const entry = at(readObject(path), 'mcpServers', 'strata');
  if (entry !== undefined || client !== 'claude-code') return { entry, where: path };
  // Claude Code also keeps user-scope servers in ~/.claude.json; the plugin brings its own.
  const user = join(homeDir(env), '.claude.json');
  return { entry: at(readObject(user), 'mcpServers', 'strata'), where: user };
}

function mcpCheck(client: AgentClient, env: Env, cwd: string): DoctorCheck {
  const { entry, where } = mcpEntry(client, env, cwd);
  const fix = `strata mcp config --client ${client} --write`;
  if (entry === undefined) return { name: 'mcp', ok: false, detail: `no strata server in ${where}`, fix };
  return { name: 'mcp', ok: true, detail: `strata server in ${where}` };
}

function storeCheck(client: AgentClient, env: Env, cwd: string): DoctorCheck | undefined {
  if (client !== 'codex') return undefined;
  const wanted = storeEnv(env);
  const given = (at(mcpEntry(client, env, cwd).entry, 'env') ?? {}) as Record<string, unknown>;
  const missing = Object.entries(wanted).filter(([k, v]) => given[k] !== v);
  if (missing.length === 0) return { name: 'store', ok: true, detail: 'the server opens the store the hooks write' };
  return {
    name: 'store',
    ok: false,
    detail: `Codex filters the server's environment: ${missing.map(([k]) => k).join(', ')} not passed on`,
    fix: 'strata mcp config --client codex --write (with the same STRATA_HOME / XDG_DATA_HOME the hooks see)',
  };
}

function hooksCheck(client: AgentClient, env: Env): DoctorCheck {
  const path = hookConfigPath(client, env);
  const text = readText(path) ?? '';
  const fix = `strata hook install --client ${client}`;
  if (!text.includes('strata hook')) return { name: 'hooks', ok: false, detail: `no strata hooks in ${path}`, fix };
  return { name: 'hooks', ok: true, detail: `strata hooks in ${path}` };
}

function trustCheck(client: AgentClient, env: Env, cwd: string): DoctorCheck | undefined {
  const dir = resolve(cwd);
  if (client === 'gemini') {
    const trusted = readObject(join(homeDir(env), '.gemini', 'trustedFolders.json')) ?? {};
    const ok = Object.entries(trusted).some(([p, v]) => v === 'TRUST_FOLDER' && (dir === p || dir.startsWith(p + '/')));
    const parent = Object.entries(trusted).some(([p, v]) => v === 'TRUST_PARENT' && dirname(dir) === p);
    if (ok || parent) return { name: 'trust', ok: true, detail: `${dir} is a trusted folder` };
    return {
      name: 'trust',
      ok: false,
      detail: `${dir} is not among Gemini CLI's trusted folders: its hooks and MCP servers do not run here`,
      fix: 'start gemini in this folder and trust it',
    };
  }
  if (client === 'codex') {
    const config = readObject(mcpConfigPath('codex', env, cwd), true);
    if (at(config, 'projects', dir, 'trust_level') === 'trusted')
      return { name: 'trust', ok: true, detail: `${dir} is a trusted Codex project` };
    return {
      name: 'trust',
      ok: false,
      detail: `${dir} is not a trusted Codex project: \`codex exec\` skips untrusted hooks without a word`,
      fix: 'start codex once in this folder, trust it and approve the strata hooks',
    };
  }
  return undefined;
}

/** Folder whose presence says the client is installed for this user. */
function clientHome(client: AgentClient, env: Env): string {
  return dirname(hookConfigPath(client, env).replace(/\/plugins\/strata\.js$/, '/opencode.json'));
}

export function runDoctor(env: Env, cwd: string, store: string): DoctorReport {
  const clients: ClientReport[] = [];
  for (const client of AGENT_CLIENTS) {
    if (!existsSync(clientHome(client, env))) continue;
    const checks = [
      mcpCheck(client, env, cwd),
      hooksCheck(client, env),
      storeCheck(client, env, cwd),
      trustCheck(client, env, cwd),
    ].filter((c): c is DoctorCheck => c !== undefined);
    clients.push({ client, checks });
  }
  return { store, command: findOnPath(env), clients };
}
