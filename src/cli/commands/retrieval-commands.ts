// Owns `strata search`, `strata read` and `strata skill` (the `index` command lives in retrieval.ts).
import type { Command } from 'commander';
import { homeDir } from '../../shared/paths.js';
import type { Store } from '../../store/db.js';
import type { SessionReader } from '../../core/retrieval/session-reader.js';
import { printJson, printLine, type CliIo } from '../io.js';
import { parseNonNegativeInt, parsePositiveInt } from './options.js';
export { registerSearchCommand } from './retrieval-search.js';
export { registerSkillCommand } from './retrieval-skill.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const READ_EXAMPLES = `
Examples:
  strata read 1fb5e404                    the whole session, ~2000 words in total
  strata read 1fb5e404 40-60              messages 40 to 60 (truncation adapts to the range)
  strata read 1fb5e404 12                 message 12 only
  strata read 1fb5e404 --skip 40          the next words of each field after a cut at 40
  strata read 1fb5e404 --full             no truncation
  strata read 1fb5e404 --show thinking --show tool:Bash:result
  strata read 1fb5e404 --hide tool --show tool:Edit
  strata read 1fb5e404 --hide tool:*:input --show tool:Bash:input --json
Selectors (comma-separated or repeated): user, assistant, thinking, system, summary, noise, tool,
tool:<Name>, tool:<Name>:input, tool:<Name>:result (* = any tool). The more specific selector wins.
Default: user/assistant/system/summary text, thinking as a word count, tool calls as one line (edits as
unified diffs), results hidden; a selected tool input is shown in full. A range keeps a tool call and its
result together. CJK text counts two characters as one word; a cut says how many words it left out.`;

interface ReadFlags {
  show?: string[];
  hide?: string[];
  target?: string;
  skip?: string;
  full?: boolean;
  json?: boolean;
  remote?: string;
}

export function registerReadCommand(program: Command, io: CliIo): void {
  program
    .command('read')
    .description('read a session (or messages N-M of it) with adaptive word truncation')
    .argument('<session>', 'session id or a unique prefix of it')
    .argument('[range]', 'message N, or messages N-M (1-based), or N- to the end')
    .option('--show <selectors>', 'show these fields (repeatable)', collect)
    .option('--hide <selectors>', 'hide these fields (repeatable)', collect)
    .option('--target <words>', 'total words to aim for (default 2000)')
    .option('--skip <n>', 'skip the first n words of every field')
    .option('--full', 'no truncation')
    .option('--json', 'print JSON on stdout')
    .option('--remote <name>', 'read the session from a team store on PostgreSQL (see `strata remote`)')
    .addHelpText('after', READ_EXAMPLES)
    .action(async (session: string, range: string | undefined, opts: ReadFlags) => {
      const [{ formatRead }, { parseSelectors }, { displayPath, sessionHome }, { openStoreForRead }] =
        await Promise.all([
          import('../../core/retrieval/format-read.js'),
          import('../../core/retrieval/selectors.js'),
          import('../../core/retrieval/locations.js'),
          import('../store-access.js'),
        ]);
      const options = {
        ...(range !== undefined ? { range } : {}),
        show: parseSelectors(opts.show),
        hide: parseSelectors(opts.hide),
        ...(opts.target !== undefined ? { targetWords: parsePositiveInt(opts.target, '--target') } : {}),
        ...(opts.skip !== undefined ? { skip: parseNonNegativeInt(opts.skip, '--skip') } : {}),
        ...(opts.full ? { full: true } : {}),
      };
      // The local store or a team store, through the one SessionReader interface.
      const reader = opts.remote
        ? await (await import('./remote-search.js')).openRemoteReader(io, opts.remote)
        : await localReader(openStoreForRead(io));
      try {
        const result = await reader.read(session, options);
        if (opts.json) return printJson(io, result);
        const localHome = homeDir(io.env);
        printLine(
          io.stdout,
          formatRead(result, (p) => displayPath(p, null, sessionHome(p, localHome))),
        );
      } finally {
        await reader.close();
      }
    });
}

async function localReader(store: Store): Promise<SessionReader> {
  const { sqliteReader } = await import('../../core/retrieval/session-reader.js');
  return { ...sqliteReader(store.db), close: async () => store.close() };
}
