// Owns `strata skill install`: writes (atomically) or prints the Claude Code retrieval skill and subagent.
import type { Command } from 'commander';
import { join } from 'node:path';
import { homeDir, tildify } from '../../shared/paths.js';
import { usageError } from '../../shared/errors.js';
import { printLine, type CliIo } from '../io.js';

const SKILL_EXAMPLES = `
Examples:
  strata skill install              write .claude/skills/strata-retrieval/SKILL.md and .claude/agents/strata-retrieval.md here
  strata skill install --user       write them under ~/.claude for every project
  strata skill install --print      show the files without writing them`;

export function registerSkillCommand(program: Command, io: CliIo): void {
  const skill = program.command('skill').description('install the Claude Code retrieval skill and subagent').addHelpText('after', SKILL_EXAMPLES);
  skill
    .command('install')
    .description('write the strata-retrieval skill and subagent for Claude Code')
    .option('--project', 'under the current project (default)')
    .option('--user', 'under ~/.claude (all projects)')
    .option('--print', 'print the files on stdout instead of writing them')
    .addHelpText('after', SKILL_EXAMPLES)
    .action(async (opts: { project?: boolean; user?: boolean; print?: boolean }) => {
      if (opts.project && opts.user) throw usageError('choose one of --project and --user');
      const [{ skillFiles }, { writeFileAtomic }] = await Promise.all([import('../../core/retrieval/skill.js'), import('../../shared/atomic-write.js')]);
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
