// Owns `strata ui` (the local web app), `strata blame` (a file's history) and `strata export --html`:
// thin shells over src/ui/server and src/core/file-history.
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { homeDir } from '../../shared/paths.js';
import { usageError } from '../../shared/errors.js';
import { printJson, printLine, type CliIo } from '../io.js';
import type { Store } from '../../store/db.js';
import type { UiServerOptions } from '../../ui/server/server.js';
import { parsePositiveInt } from './options.js';

const UI_EXAMPLES = `
Examples:
  strata ui                     serve the web app on 127.0.0.1 at a free port and print its URL
  strata ui --port 7077 --open  a fixed port, opened in the default browser
The server only reads the store, answers only on 127.0.0.1 and refuses requests for any other host name.
Stop it with Ctrl-C.`;

const BLAME_EXAMPLES = `
Examples:
  strata blame src/store/db.ts             every session that created, edited, read or discussed the file
  strata blame src/store/db.ts:120         only edits whose text is at line 120 of today's file (plus reads, mentions)
  strata blame 'C:\\repo\\src\\db.ts' --json  Windows, absolute and relative forms all match
Actions: created, edited, read (a read tool), ran (a command naming it), discussed (text mentioning it).
Each line cites the session and message number: open it with \`strata read <id> <N>\`.`;

const EXPORT_EXAMPLES = `
Examples:
  strata export 1fb5e404 --html review.html   one self-contained HTML file (styles and script inline)
The file holds the session as stored (secrets redacted at ingest), opens offline, and is written atomically.`;

const MAX_CURRENT_BYTES = 8 * 1024 * 1024;

/** Today's text of a file named in a query, when it is a readable regular file of a sane size. */
function readCurrentFile(cwd: string): (path: string) => string | undefined {
  return (path) => {
    try {
      const full = resolve(cwd, path);
      const st = statSync(full);
      if (!st.isFile() || st.size > MAX_CURRENT_BYTES) return undefined;
      return readFileSync(full, 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** `FILE:LINE` → file and line; a Windows drive colon (`C:\\x`) is not a line. */
export function parseFileLine(spec: string): { path: string; line?: number } {
  const m = /^(.+?):(\d+)$/.exec(spec);
  if (m && !/^[A-Za-z]$/.test(m[1]!)) return { path: m[1]!, line: Math.max(1, Number(m[2])) };
  return { path: spec };
}

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd as string, args as string[], { detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
}

/** What `strata ui` serves: the local store, or a team store's connection; closed with the server. */
interface UiSource {
  options: UiServerOptions;
  close(): void;
}

async function localUiSource(io: CliIo): Promise<UiSource> {
  const { openStoreForRead } = await import('../store-access.js');
  const store = openStoreForRead(io);
  return {
    options: { db: store.db, home: homeDir(io.env), cwd: io.cwd, readCurrent: readCurrentFile(io.cwd) },
    close: () => store.close(),
  };
}

/** `ui --remote`: search, the session list and sessions from a team store; the rest says local only. */
async function remoteUiSource(io: CliIo, name: string): Promise<UiSource> {
  const [{ connectRemote }, { postgresReader }, { remoteSessionDetail }, { remoteApi }] = await Promise.all([
    import('./remote-search.js'),
    import('../../core/team/remote-reader.js'),
    import('../../core/team/remote-session.js'),
    import('../../ui/server/remote-api.js'),
  ]);
  const { client } = await connectRemote(io, name);
  const reader = postgresReader(client, name);
  return {
    options: { remoteApi: remoteApi(reader, (id) => remoteSessionDetail(client, id)) },
    close: () => void reader.close(),
  };
}

/** The team store's sessions that mention `path`, in a throwaway local store the local blame reads. */
async function remoteBlameStore(io: CliIo, name: string, path: string, machine?: string): Promise<Store> {
  const [{ openRemoteScratch }, scratch] = await Promise.all([
    import('./remote-search.js'),
    import('../../core/team/remote-scratch.js'),
  ]);
  return openRemoteScratch(io, name, (client) => scratch.remoteBlameStore(client, path, machine));
}

export function registerUiCommands(program: Command, io: CliIo): void {
  program
    .command('ui')
    .description('browse sessions, search, file histories and activity in a local web app (read-only)')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free port)')
    .option('--open', 'open the app in the default browser')
    .option('--remote <name>', 'search, list and read a team store (files, activity, logbooks are local only)')
    .addHelpText('after', UI_EXAMPLES)
    .action(async (opts: { port?: string; open?: boolean; remote?: string }) => {
      const port = opts.port !== undefined ? parsePositiveInt(opts.port, '--port') : 0;
      if (port > 65535) throw usageError('--port must be at most 65535');
      const { startUiServer } = await import('../../ui/server/server.js');
      const store = opts.remote ? await remoteUiSource(io, opts.remote) : await localUiSource(io);
      const server = await startUiServer({ ...store.options, port }).catch((error: unknown) => {
        store.close();
        throw error;
      });
      printLine(io.stdout, server.url);
      printLine(io.stderr, `strata ui: serving ${server.url} (read-only; Ctrl-C to stop)`);
      if (opts.open) openInBrowser(server.url);
      await new Promise<void>((done) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(() => {
            store.close();
            done();
          });
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });

  program
    .command('blame')
    .description('sessions and messages that created, edited, read or discussed a file, newest first')
    .argument('<file>', 'FILE or FILE:LINE (absolute, relative or Windows path)')
    .option('--limit <n>', 'at most n entries (default 50)')
    .option('--json', 'print JSON on stdout')
    .option('--remote <name>', 'the sessions of a team store on PostgreSQL (see `strata remote`)')
    .option('--machine <name>', 'with --remote: only sessions pushed from this machine')
    .addHelpText('after', BLAME_EXAMPLES)
    .action(async (spec: string, opts: { limit?: string; json?: boolean; remote?: string; machine?: string }) => {
      const { path, line } = parseFileLine(spec);
      const [{ fileHistory }, { formatBlame }, { openStoreForRead }] = await Promise.all([
        import('../../core/file-history/file-history.js'),
        import('../../core/file-history/format-blame.js'),
        import('../store-access.js'),
      ]);
      const store = opts.remote ? await remoteBlameStore(io, opts.remote, path, opts.machine) : openStoreForRead(io);
      try {
        const history = fileHistory(store.db, {
          path,
          ...(line !== undefined ? { line } : {}),
          limit: opts.limit !== undefined ? Math.max(1, parsePositiveInt(opts.limit, '--limit')) : 50,
          readCurrent: readCurrentFile(io.cwd),
        });
        if (opts.json) return printJson(io, history);
        if (history.entries.length === 0) return printLine(io.stderr, `no session mentions ${path}`);
        printLine(io.stdout, formatBlame(history));
      } finally {
        store.close();
      }
    });

  program
    .command('export')
    .description('write one session as a self-contained HTML file')
    .argument('<session>', 'session id or a unique prefix of it')
    .requiredOption('--html <file>', 'the HTML file to write')
    .addHelpText('after', EXPORT_EXAMPLES)
    .action(async (session: string, opts: { html: string }) => {
      const [{ sessionDetail }, { sessionHtml }, { writeFileAtomic }, { openStoreForRead }] = await Promise.all([
        import('../../core/browse/session-detail.js'),
        import('../../ui/server/export-html.js'),
        import('../../shared/atomic-write.js'),
        import('../store-access.js'),
      ]);
      const store = openStoreForRead(io);
      try {
        const { redactIfPending } = await import('../../core/redaction/outgoing.js');
        const detail = redactIfPending(store.db, sessionDetail(store.db, session));
        const out = resolve(io.cwd, opts.html);
        writeFileAtomic(out, sessionHtml(detail));
        printLine(io.stderr, `wrote ${out} (${detail.messages.length} messages)`);
      } finally {
        store.close();
      }
    });
}
