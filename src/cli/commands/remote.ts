// Owns `strata remote …` (team-store targets on PostgreSQL) and `strata push`.
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { dataDir } from '../../shared/paths.js';
import { StrataError } from '../../shared/errors.js';
import { createProgress, formatTable, printJson, printLine, type CliIo } from '../io.js';
import { parseAgentList } from './options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const remotesFile = (io: CliIo) => join(dataDir(io.env), 'remotes.json');

const REMOTE_EXAMPLES = `
Examples:
  strata remote add team postgres://alice@db.internal:5432/strata?sslmode=require
  strata remote init team --print     the SQL that sets up the schema and the roles (run by the owner)
  strata remote init team             apply it (needs a role that may create schemas and roles)
  strata remote check team            connect, check the schema version, count the team's sessions
  strata remote list                  the targets, without passwords (strata never stores one)
Passwords come from PostgreSQL's own PGPASSWORD or pgpass file (~/.pgpass, PGPASSFILE).`;

const PUSH_EXAMPLES = `
Examples:
  strata push                         push to the only remote (or name it: strata push team)
  strata push team --agent claude-code,codex --exclude-project secret-client
  strata push --json                  a report: sessions pushed, unchanged, excluded; messages, blocks
Only sessions that changed since the last push are sent; a killed push resumes where it stopped.
A project folder holding a .strata-no-push file never leaves this machine.`;

async function withRemote<T>(
  io: CliIo,
  name: string | undefined,
  run: (client: import('pg').Client, remoteName: string) => Promise<T>,
): Promise<T> {
  const [{ findRemote }, { connectTeamStore }] = await Promise.all([
    import('../../core/team/remotes.js'),
    import('../../store/team/pg-client.js'),
  ]);
  const remote = findRemote(remotesFile(io), name);
  const client = await connectTeamStore(remote.url);
  try {
    return await run(client, remote.name);
  } finally {
    await client.end().catch(() => {});
  }
}

export function registerRemoteCommands(program: Command, io: CliIo): void {
  const remote = program
    .command('remote')
    .description('team stores on PostgreSQL: add, list, remove, check, init')
    .addHelpText('after', REMOTE_EXAMPLES);
  remote
    .command('add')
    .description('name a PostgreSQL team store (the URL holds no password)')
    .argument('<name>')
    .argument('<url>', 'postgres://user@host:port/database[?sslmode=…]')
    .action(async (name: string, url: string) => {
      const { addRemote } = await import('../../core/team/remotes.js');
      addRemote(remotesFile(io), name, url);
      io.stderr.write(`remote ${name} added; next: strata remote check ${name}\n`);
    });
  remote
    .command('list')
    .description('the named team stores')
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { json?: boolean }) => {
      const { readRemotes } = await import('../../core/team/remotes.js');
      const remotes = readRemotes(remotesFile(io));
      if (opts.json) return printJson(io, remotes);
      if (remotes.length === 0) io.stderr.write('no remote yet: strata remote add NAME postgres://…\n');
      else printLine(io.stdout, formatTable(remotes.map((r) => [r.name, r.url])));
    });
  remote
    .command('remove')
    .description('forget a team store (nothing on the server changes)')
    .argument('<name>')
    .action(async (name: string) => {
      const { removeRemote } = await import('../../core/team/remotes.js');
      removeRemote(remotesFile(io), name);
    });
  remote
    .command('check')
    .description('connect, check the schema version and count what the server holds')
    .argument('[name]')
    .option('--json', 'print JSON on stdout')
    .action(async (name: string | undefined, opts: { json?: boolean }) => {
      const { requireTeamSchema } = await import('../../store/team/pg-client.js');
      await withRemote(io, name, async (client, remoteName) => {
        const version = await requireTeamSchema(client, remoteName);
        const counts = await client.query(
          `SELECT (SELECT count(*) FROM strata.sessions)::int AS sessions,
             (SELECT count(DISTINCT machine) FROM strata.sessions)::int AS machines,
             (SELECT count(*) FROM strata.messages)::int AS messages, current_user AS role`,
        );
        const c = counts.rows[0] as { sessions: number; machines: number; messages: number; role: string };
        if (opts.json) return printJson(io, { remote: remoteName, schemaVersion: version, ...c });
        printLine(
          io.stdout,
          `${remoteName}: schema ${version}, connected as ${c.role}; ${c.sessions} sessions, ` +
            `${c.messages} messages from ${c.machines} machines`,
        );
      });
    });
  remote
    .command('init')
    .description('create or upgrade the schema and the roles on the server (or --print the SQL)')
    .argument('[name]')
    .option('--print', 'print the SQL instead of running it')
    .action(async (name: string | undefined, opts: { print?: boolean }) => {
      if (opts.print) {
        const { setupSql } = await import('../../store/team/pg-schema.js');
        return printLine(io.stdout, setupSql());
      }
      const { migrateTeamStore } = await import('../../store/team/pg-client.js');
      await withRemote(io, name, async (client, remoteName) => {
        const { from, to } = await migrateTeamStore(client);
        io.stderr.write(
          `${remoteName}: schema ${from === to ? `${to}, up to date` : `${from} → ${to}`}; roles strata_writer ` +
            'and strata_reader set up. Give each machine a login role: ' +
            'CREATE ROLE <machine> LOGIN PASSWORD … IN ROLE strata_writer;\n',
        );
      });
    });

  program
    .command('push')
    .description("send this machine's sessions and logbooks (already redacted) to a team store")
    .argument('[name]', 'the remote (default: the only one)')
    .option('--agent <list>', 'only these agents, comma-separated')
    .option('--exclude-project <dir>', 'never push sessions of this project (whole path segments; repeatable)', collect)
    .option('--machine <name>', 'the machine name rows carry (default: STRATA_MACHINE or the host name)')
    .option('--json', 'print a JSON report on stdout')
    .addHelpText('after', PUSH_EXAMPLES)
    .action((name: string | undefined, opts: PushFlags) => runPush(io, name, opts));
}

export interface PushFlags {
  agent?: string;
  excludeProject?: string[];
  machine?: string;
  json?: boolean;
}

/** `strata push`, also run by `ingest --push` and `hook ingest --push` after they wrote the store. */
export async function runPush(io: CliIo, name: string | undefined, opts: PushFlags): Promise<void> {
  const [{ pushStore }, { requireTeamSchema }, { openStoreForRead }] = await Promise.all([
    import('../../core/team/push.js'),
    import('../../store/team/pg-client.js'),
    import('../store-access.js'),
  ]);
  const machine = opts.machine ?? io.env.STRATA_MACHINE ?? hostname();
  if (!machine.trim()) throw new StrataError('USAGE', '--machine is empty');
  const agents = parseAgentList(opts.agent);
  await withRemote(io, name, async (client, remoteName) => {
    await requireTeamSchema(client, remoteName);
    const store = openStoreForRead(io);
    const progress = createProgress(io, !opts.json);
    try {
      const report = await pushStore(store.db, client, {
        machine,
        osUser: userInfo().username,
        ...(agents ? { agents } : {}),
        ...(opts.excludeProject ? { excludeProjects: opts.excludeProject } : {}),
        onProgress: (done, total) => progress.update(done, total, 'sessions'),
      });
      progress.done();
      if (opts.json) return printJson(io, { remote: remoteName, machine, ...report });
      io.stderr.write(
        `pushed ${report.sessionsPushed} sessions (${report.messages} messages, ${report.blocks} blocks) ` +
          `to ${remoteName} as ${machine}; ${report.sessionsUnchanged} unchanged, ` +
          `${report.sessionsExcluded} excluded, ${report.logbooks} logbooks\n`,
      );
    } finally {
      store.close();
    }
  });
}
