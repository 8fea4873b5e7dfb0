// A throwaway PostgreSQL cluster for tests: Debian's server binaries, initdb in a temp dir owned by a
// non-root user, listening on 127.0.0.1 at a free port, stopped (and its files removed) by `stop()`.
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCluster {
  port: number;
  /** A URL for the superuser (trust auth on 127.0.0.1), optionally for another role and database. */
  url(role?: string, database?: string): string;
  stop(): Promise<void>;
}

/** The newest Debian PostgreSQL bin folder, or undefined when the server is not installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Why PostgreSQL tests cannot run here, or undefined when they can (under CI they must). */
export function postgresMissing(): string | undefined {
  return postgresBin() ? undefined : 'PostgreSQL server binaries not found (apt-get install postgresql)';
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export async function startCluster(): Promise<TestCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresMissing());
  const dir = mkdtempSync(join(tmpdir(), 'strata-pg-'));
  const data = join(dir, 'data');
  // initdb refuses to run as root: the cluster belongs to the `postgres` system user then.
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    chmodSync(dir, 0o755);
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const as = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '120', 'start']);
  return {
    port,
    url: (role = 'postgres', database = 'postgres') => `postgres://${role}@127.0.0.1:${port}/${database}`,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
