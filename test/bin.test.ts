// The `strata` command as installed (package.json's bin, bin/strata.cjs, which sizes libuv's thread pool
// first and loads the bundled CLI, dist/strata.cjs, with V8's code cache): it runs the CLI, with its output
// and exit codes, as the unbundled dist/cli/main.js does.
import { describe, expect, it } from 'vitest';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI, FIXTURES, REPO, runCli, tempDir } from './support/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
const BIN = join(REPO, pkg.bin.strata!);

async function run(entry: string, args: string[], env: Record<string, string> = {}, input = '') {
  return await runCli(args, { HOME: tempDir(), STRATA_HOME: tempDir(), ...env }, { entry, input });
}
const strata = async (args: string[], env: Record<string, string> = {}, input = '') => await run(BIN, args, env, input);
const cacheFiles = (cacheHome: string) => readdirSync(join(cacheHome, 'strata', 'compile-cache')).sort();

describe('the strata command', () => {
  it('runs the CLI: output, usage errors and their exit code', async () => {
    expect(await strata(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const missing = join(tempDir(), 'no-such-folder');
    const r = await strata(['ingest', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
  });

  it('answers as the unbundled CLI does', async () => {
    const cases: [string[], string][] = [
      [['--help'], ''],
      [['search', '--help'], ''],
      [['search', 'x'], ''],
      [['hook', 'context'], '{}'],
      [['read', 'nope'], ''],
    ];
    for (const [args, input] of cases) {
      const env = { HOME: tempDir(), STRATA_HOME: tempDir() };
      expect(await strata(args, env, input), args.join(' ')).toEqual(await run(CLI, args, env, input));
    }
  });

  it('gives each bundled module its own dist file URL, so workers and schemas beside it are found', () => {
    const bundle = readFileSync(join(REPO, 'dist', 'strata.cjs'), 'utf8');
    const own = [...bundle.matchAll(/new URL\("([a-z][\w/-]*\.js)",\s*[\w$]+\)/g)].map((m) => m[1]!);
    expect(own).toEqual(expect.arrayContaining(['core/ingest/pipeline/threaded.js', 'store/checkpointer.js']));
    for (const path of own) expect(existsSync(join(REPO, 'dist', path)), path).toBe(true);
    const beside = [...bundle.matchAll(/new URL\("([^"]+)",\s*new URL\("([^"]+)",\s*[\w$]+\)/g)];
    expect(beside.length).toBeGreaterThanOrEqual(4);
    for (const [, target, base] of beside) {
      const file = fileURLToPath(new URL(target!, pathToFileURL(join(REPO, 'dist', base!))));
      expect(existsSync(file), `${target} beside ${base}`).toBe(true);
    }
  });

  it('ingests and lists through the bundle', async () => {
    const env = { STRATA_HOME: tempDir() };
    const ingested = await strata(['ingest', join(FIXTURES, 'claude-code')], env);
    expect(ingested.code, ingested.stderr).toBe(0);
    const found = await strata(['sessions', '--json'], env);
    expect(JSON.parse(found.stdout).length).toBeGreaterThan(0);
  });

  it('serves MCP from the bundle', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize' };
    const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } };
    const r = await strata(['mcp', '--refresh', '3600'], {}, `${JSON.stringify({ ...initialize, params })}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!).result.serverInfo.name).toBe('strata');
  });
});

describe('the compile cache', () => {
  it('is written per command under $XDG_CACHE_HOME/strata and used by the next run', async () => {
    const cacheHome = tempDir();
    const first = await strata(['search', 'x'], { XDG_CACHE_HOME: cacheHome });
    // Named by the hash the build stamps on the bundle: a rebuilt bundle never meets an old cache.
    const stamp = /^\/\/ bundle ([0-9a-f]{16})\n/.exec(readFileSync(join(REPO, 'dist', 'strata.cjs'), 'utf8'))![1];
    expect(cacheFiles(cacheHome)).toEqual([`${process.version}-${process.arch}-${stamp}-search.bin`]);
    await strata(['--version'], { XDG_CACHE_HOME: cacheHome });
    expect(cacheFiles(cacheHome)).toEqual([
      expect.stringMatching(/-search\.bin$/),
      expect.stringMatching(/-strata\.bin$/),
    ]);
    expect(await strata(['search', 'x'], { XDG_CACHE_HOME: cacheHome })).toEqual(first);
  });

  it('replaces a damaged cache and answers the same', async () => {
    const cacheHome = tempDir();
    const first = await strata(['search', 'x'], { XDG_CACHE_HOME: cacheHome });
    const file = join(cacheHome, 'strata', 'compile-cache', cacheFiles(cacheHome)[0]!);
    writeFileSync(file, 'not a code cache');
    expect(await strata(['search', 'x'], { XDG_CACHE_HOME: cacheHome })).toEqual(first);
    expect(statSync(file).size).toBeGreaterThan(1000);
  });

  it('is skipped quietly when it cannot be written, and when STRATA_NO_COMPILE_CACHE is set', async () => {
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, '');
    expect(await strata(['--version'], { XDG_CACHE_HOME: notADir })).toEqual({
      code: 0,
      stdout: `${pkg.version}\n`,
      stderr: '',
    });
    const cacheHome = tempDir();
    expect((await strata(['--version'], { XDG_CACHE_HOME: cacheHome, STRATA_NO_COMPILE_CACHE: '1' })).code).toBe(0);
    expect(existsSync(join(cacheHome, 'strata'))).toBe(false);
  });
});

describe('which build the command runs', () => {
  /** A copy of bin/strata.cjs beside a stand-in bundle and modules that say which one ran. */
  function layout(): { root: string; bundle: string; modules: string } {
    const root = tempDir();
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    copyFileSync(BIN, join(root, 'bin', 'strata.cjs'));
    writeFileSync(join(root, 'package.json'), '{"type":"module"}');
    const bundle = join(root, 'dist', 'strata.cjs');
    const modules = join(root, 'dist', 'cli', 'main.js');
    writeFileSync(bundle, "// bundle 0123456789abcdef\nexports.main = () => process.stdout.write('bundle\\n');\n");
    writeFileSync(modules, "export function main() { process.stdout.write('modules\\n'); }\n");
    return { root, bundle, modules };
  }
  const runIn = async (root: string) => await run(join(root, 'bin', 'strata.cjs'), [], { XDG_CACHE_HOME: tempDir() });

  it('runs the bundle when it is at least as new as the modules tsc wrote', async () => {
    const { root, bundle, modules } = layout();
    utimesSync(modules, new Date(2026, 0, 1), new Date(2026, 0, 1));
    utimesSync(bundle, new Date(2026, 0, 1), new Date(2026, 0, 1));
    expect(await runIn(root)).toEqual({ code: 0, stdout: 'bundle\n', stderr: '' });
  });

  it('runs the modules when tsc wrote them after the bundle, and says when neither loads', async () => {
    const { root, bundle, modules } = layout();
    utimesSync(bundle, new Date(2026, 0, 1), new Date(2026, 0, 1));
    utimesSync(modules, new Date(2026, 0, 2), new Date(2026, 0, 2));
    expect(await runIn(root)).toEqual({ code: 0, stdout: 'modules\n', stderr: '' });
    writeFileSync(modules, 'export function main( {');
    const broken = await runIn(root);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^strata: cannot load the CLI \(was it built\? run `npm run build`\)/);
  });
});
