// Owns `strata doctor`: checks each installed client's strata setup (MCP server, hooks, the store the
// server opens, folder trust) and prints what to do for each problem. Reads only; exit 0 either way.
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { runDoctor, type DoctorReport } from '../../core/agent-config/doctor.js';
import { storePath, tildify } from '../../shared/paths.js';
import { printJson, type CliIo } from '../io.js';

function formatDoctor(report: DoctorReport, sessions: number | null, io: CliIo): string {
  const t = (p: string) => tildify(p, io.env);
  const lines = [
    `store: ${t(report.store)} ${sessions === null ? '(none yet: run `strata ingest`)' : `(${sessions} sessions)`}`,
    report.command
      ? `strata on PATH: ${t(report.command)}`
      : 'strata on PATH: not found. The hooks and the MCP server run `strata`: put it on PATH (`npm link`)',
  ];
  if (report.clients.length === 0) lines.push('no client configuration folder found (~/.claude, ~/.codex, ...)');
  for (const { client, checks } of report.clients) {
    lines.push(client);
    for (const c of checks) {
      const detail = c.detail.replace(io.env.HOME ?? '\u0000', '~');
      lines.push(
        `  ${c.ok ? 'ok ' : 'FIX'}  ${c.name.padEnd(5)}  ${detail}${c.fix ? `\n              → ${c.fix}` : ''}`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

export function registerDoctorCommand(program: Command, io: CliIo): void {
  program
    .command('doctor')
    .description("check each installed client's strata setup and say what to do")
    .option('--json', 'print JSON on stdout')
    .addHelpText(
      'after',
      `
Checks, for each client whose configuration folder exists: the strata MCP server entry, the strata hooks,
the store the Codex server opens (Codex filters its environment), and folder trust (Gemini CLI, Codex).
Examples:
  strata doctor
  strata doctor --json`,
    )
    .action(async (opts: { json?: boolean }) => {
      const path = storePath(io.env);
      const report = runDoctor(io.env, io.cwd, path);
      let sessions: number | null = null;
      if (existsSync(path)) {
        const { openStoreForRead } = await import('../store-access.js');
        const store = openStoreForRead(io);
        try {
          sessions = store.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get() as number;
        } finally {
          store.close();
        }
      }
      if (opts.json) return printJson(io, { ...report, sessions });
      io.stdout.write(formatDoctor(report, sessions, io));
    });
}
