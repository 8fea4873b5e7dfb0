// Owns `strata skill install` (writes, atomically, or prints the Claude Code retrieval skills and subagent)
// and `strata skill context` (the context those skills preload, with every fallback in its output).
import type { Command } from 'commander';
import { join } from 'node:path';
import { homeDir, tildify } from '../../shared/paths.js';
import { usageError } from '../../shared/errors.js';
import { printLine, type CliIo } from '../io.js';
import { execFileSync } from 'node:child_process';
import { describeError } from '../../shared/errors.js';

const SKILL_EXAMPLES =
  `
Examples:
  strata skill install              write the skills strata-retrieval and strata-context and the agent ` +
  `strata-retrieval under .claude/ here
  strata skill install --user       write them under ~/.claude for every project
  strata skill install --print      show the files without writing them
  strata skill context              the context the skill preloads: git log, this project's sessions, help`;

/** A command's full --help (with its examples) as text. */
function helpOf(program: Command, name: string, io: CliIo): string {
  const command = program.commands.find((c) => c.name() === name);
  if (!command) return '';
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s) });
  command.outputHelp();
  command.configureOutput({ writeOut: (s) => io.stdout.write(s) });
  return text;
}

function gitLog(cwd: string): string | undefined {
  try {
    return execFileSync('git', ['log', '--oneline'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 28,
    });
  } catch {
    return undefined;
  }
}

export function registerSkillCommand(program: Command, io: CliIo): void {
  const skill = program
    .command('skill')
    .description('install the Claude Code retrieval skill and subagent')
    .addHelpText('after', SKILL_EXAMPLES);
  skill
    .command('context')
    .description('print the context the retrieval skill preloads (never fails: each part says why it is missing)')
    .addHelpText('after', SKILL_EXAMPLES)
    .action(async () => {
      const [{ skillContext }, { listingLines }, { openStoreForRead }] = await Promise.all([
        import('../../core/retrieval/skill.js'),
        import('../../core/retrieval/format-listing.js'),
        import('../store-access.js'),
      ]);
      const home = homeDir(io.env);
      const helps = ['index', 'search', 'read'].map((name) => helpOf(program, name, io));
      let store: Awaited<ReturnType<typeof openStoreForRead>> | undefined;
      let storeProblem: string | undefined;
      try {
        store = openStoreForRead(io);
      } catch (error) {
        storeProblem = `the strata store cannot be read: ${describeError(error)}`;
      }
      try {
        const text = skillContext({
          gitLog: gitLog(io.cwd),
          cwd: io.cwd,
          projectLines: store ? listingLines(store.db, { project: io.cwd }, home) : [],
          latestLines: () => (store ? listingLines(store.db, { limit: 50 }, home) : []),
          ...(storeProblem ? { storeProblem } : {}),
          helps,
        });
        printLine(io.stdout, text);
      } finally {
        store?.close();
      }
    });
  skill
    .command('install')
    .description('write the strata-retrieval skill, its strata-context skill and the subagent for Claude Code')
    .option('--project', 'under the current project (default)')
    .option('--user', 'under ~/.claude (all projects)')
    .option('--print', 'print the files on stdout instead of writing them')
    .addHelpText('after', SKILL_EXAMPLES)
    .action(async (opts: { project?: boolean; user?: boolean; print?: boolean }) => {
      if (opts.project && opts.user) throw usageError('choose one of --project and --user');
      const [{ skillFiles }, { writeFileAtomic }] = await Promise.all([
        import('../../core/retrieval/skill.js'),
        import('../../shared/atomic-write.js'),
      ]);
      const root = opts.user ? homeDir(io.env) : io.cwd;
      for (const file of skillFiles()) {
        const target = join(root, file.path);
        if (opts.print) {
          printLine(io.stdout, `==> ${tildify(target, io.env)} <==`);
          printLine(io.stdout, file.content);
        } else {
          writeFileAtomic(target, file.content);
          printLine(io.stderr, `wrote ${tildify(target, io.env)}`);
        }
      }
    });
}
