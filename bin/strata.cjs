#!/usr/bin/env node
// The `strata` command. CommonJS on purpose: it sizes libuv's thread pool before anything uses it, and an
// ES module entry is itself read through that pool. 16 threads rather than 4 keep more file reads in
// flight when the disk answers slowly (a first ingest of old histories on a network or cloud disk): the
// heads of 3,327 files took 4.4 s to read with 4 threads and 1.6 s with 16, on a disk of 4 ms per request.
const sized = process.env.UV_THREADPOOL_SIZE === undefined;
if (sized) process.env.UV_THREADPOOL_SIZE = '16';
import('../dist/cli/main.js').then(
  (cli) => {
    // The pool has started (loading the CLI used it): the programs strata runs keep their own default.
    if (sized) delete process.env.UV_THREADPOOL_SIZE;
    cli.main();
  },
  (error) => {
    process.stderr.write(`strata: cannot load the CLI (was it built? run \`npm run build\`): ${error.message}\n`);
    process.exitCode = 1;
  },
);
