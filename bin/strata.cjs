#!/usr/bin/env node
// The `strata` command. CommonJS on purpose: it sizes libuv's thread pool before anything uses it. 16 threads
// rather than 4 keep more file reads in flight when the disk answers slowly (a first ingest of old histories
// on a network or cloud disk): the heads of 3,327 files took 4.4 s to read with 4 threads and 1.6 s with 16,
// on a disk of 4 ms per request.
const sized = process.env.UV_THREADPOOL_SIZE === undefined;
if (sized) process.env.UV_THREADPOOL_SIZE = '16';

const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const vm = require('node:vm');
const Module = require('node:module');

// The CLI as one file (scripts/build-cli.mjs), compiled with V8's code cache of an earlier run of the same
// command: a start-up then neither resolves hundreds of modules nor compiles what it runs again.
const BUNDLE = path.join(__dirname, '../dist/strata.cjs');
const MODULES = path.join(__dirname, '../dist/cli/main.js');
// Long-running commands (`strata mcp`) are often ended by a signal: their cache is written once warmed up.
const SAVE_AFTER_MS = 2000;

function cacheFile(env, argv, source) {
  // The build stamps the bundle with a hash of its text: a cache is only ever used with the text it was made from.
  const bundle = /^\/\/ bundle ([0-9a-f]{16})\n/.exec(source)?.[1];
  if (env.STRATA_NO_COMPILE_CACHE || bundle === undefined) return undefined;
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  const word = argv.find((arg) => !arg.startsWith('-'));
  const command = word && /^[a-z][a-z-]{0,23}$/.test(word) ? word : 'strata';
  const version = `${process.version}-${process.arch}`;
  const name = `${version}-${bundle}-${command}.bin`;
  return { dir: path.join(base, 'strata', 'compile-cache'), version, command, name };
}

function saveCache(cache, script) {
  const file = path.join(cache.dir, cache.name);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(cache.dir, { recursive: true });
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, file);
    // Caches of an earlier build of the bundle, for this Node and command, can never be used again.
    for (const name of fs.readdirSync(cache.dir))
      if (name !== cache.name && name.startsWith(`${cache.version}-`) && name.endsWith(`-${cache.command}.bin`))
        fs.rmSync(path.join(cache.dir, name), { force: true });
  } catch {
    // A cache that cannot be written costs the next start-up its compile time, nothing else.
    try {
      fs.rmSync(temporary, { force: true });
    } catch {}
  }
}

function loadCli(argv) {
  // scripts/build-cli.mjs writes the bundle in ASCII: read as one-byte text, quicker than decoding UTF-8.
  const source = fs.readFileSync(BUNDLE, 'latin1');
  const cache = cacheFile(process.env, argv, source);
  let cachedData;
  try {
    if (cache) cachedData = fs.readFileSync(path.join(cache.dir, cache.name));
  } catch {
    // No cache yet: this run compiles and writes it.
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: BUNDLE, cachedData });
  if (cache && (cachedData === undefined || script.cachedDataRejected)) {
    let saved = false;
    const save = () => {
      if (!saved) saveCache(cache, script);
      saved = true;
    };
    setTimeout(save, SAVE_AFTER_MS).unref();
    process.once('exit', save);
  }
  const cli = { exports: {} };
  script.runInThisContext()(cli.exports, Module.createRequire(BUNDLE), cli, BUNDLE, path.dirname(BUNDLE));
  return cli.exports;
}

function run(cli) {
  // libuv reads the size as its pool starts, which a first queued task does: then the programs strata runs
  // keep their own default.
  fs.access(BUNDLE, () => {});
  if (sized) delete process.env.UV_THREADPOOL_SIZE;
  cli.main();
}

function cannotLoad(error) {
  process.stderr.write(`strata: cannot load the CLI (was it built? run \`npm run build\`): ${error.message}\n`);
  process.exitCode = 1;
}

/** False when tsc wrote the modules after the bundle (a build without its last step): they are run instead. */
function bundleIsCurrent() {
  try {
    return fs.statSync(BUNDLE).mtimeMs >= fs.statSync(MODULES).mtimeMs;
  } catch {
    return false;
  }
}

if (bundleIsCurrent()) {
  let cli;
  try {
    cli = loadCli(process.argv.slice(2));
  } catch (error) {
    cannotLoad(error);
  }
  if (cli) run(cli);
} else {
  import(require('node:url').pathToFileURL(MODULES).href).then(run, cannotLoad);
}
