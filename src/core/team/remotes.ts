// Owns the named team-store targets in `<data dir>/remotes.json` (mode 0600). A URL never holds a
// password: PostgreSQL's own PGPASSWORD or pgpass file supplies it.
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { StrataError } from '../../shared/errors.js';

export interface Remote {
  name: string;
  url: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function readRemotes(file: string): Remote[] {
  if (!existsSync(file)) return [];
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { remotes?: Record<string, { url?: unknown }> };
    return Object.entries(doc.remotes ?? {})
      .filter(([, r]) => typeof r?.url === 'string')
      .map(([name, r]) => ({ name, url: r.url as string }));
  } catch (error) {
    throw new StrataError('CONFIG', `${file} is not valid JSON; fix or remove it`, { cause: error });
  }
}

function writeRemotes(file: string, remotes: Remote[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const doc = { remotes: Object.fromEntries(remotes.map((r) => [r.name, { url: r.url }])) };
  writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
  chmodSync(file, 0o600);
}

/** Checks a target URL: postgres(ql)://, a host, a database, and no password in it. */
export function checkRemoteUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StrataError('USAGE', `not a URL: ${url.replace(/:[^:@/]*@/, ':***@')}`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new StrataError('USAGE', `a remote is a PostgreSQL URL (postgres://user@host:port/db), not ${u.protocol}`);
  }
  if (u.password) {
    throw new StrataError(
      'USAGE',
      'the URL holds a password: strata never stores one; put it in ~/.pgpass (or PGPASSFILE) or PGPASSWORD',
    );
  }
  if (!u.hostname) throw new StrataError('USAGE', 'the URL names no host');
}

export function addRemote(file: string, name: string, url: string): Remote {
  if (!NAME.test(name)) throw new StrataError('USAGE', `bad remote name "${name}" (letters, digits, . _ -)`);
  checkRemoteUrl(url);
  const remotes = readRemotes(file);
  if (remotes.some((r) => r.name === name)) {
    throw new StrataError('USAGE', `remote ${name} exists; \`strata remote remove ${name}\` first`);
  }
  const remote = { name, url };
  writeRemotes(file, [...remotes, remote]);
  return remote;
}

export function removeRemote(file: string, name: string): void {
  const remotes = readRemotes(file);
  if (!remotes.some((r) => r.name === name)) throw new StrataError('NOT_FOUND', `no remote named ${name}`);
  writeRemotes(
    file,
    remotes.filter((r) => r.name !== name),
  );
}

/** The named remote, or the only one when no name is given. */
export function findRemote(file: string, name?: string): Remote {
  const remotes = readRemotes(file);
  if (remotes.length === 0) throw new StrataError('CONFIG', 'no remote yet: `strata remote add NAME postgres://…`');
  if (name === undefined) {
    if (remotes.length === 1) return remotes[0]!;
    throw new StrataError('USAGE', `name a remote: ${remotes.map((r) => r.name).join(', ')}`);
  }
  const found = remotes.find((r) => r.name === name);
  if (!found)
    throw new StrataError(
      'NOT_FOUND',
      `no remote named ${name} (have: ${remotes.map((r) => r.name).join(', ') || 'none'})`,
    );
  return found;
}

/** The last path segment of a typed --project (a prefilter in SQL; projectMatches decides). */
export function lastSegment(typed: string): string {
  return (
    typed
      .split(/[\\/]+/)
      .filter((p) => p && p !== '~')
      .pop() ?? ''
  ).replace(/[\\%_]/g, '\\$&');
}
