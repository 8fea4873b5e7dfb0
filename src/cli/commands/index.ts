// Owns the list of CLI command groups. Each group is loaded only when one of its commands runs (or for
// the full `--help`), so `strata search` does not pay for tree-sitter or the pack schema at start-up.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

type Register = (program: Command, io: CliIo) => void;

interface CommandGroup {
  commands: string[];
  load: () => Promise<Register>;
}

// One entry per command group (keep this list; edit with precise insertions).
const GROUPS: CommandGroup[] = [
  { commands: ['demo'], load: async () => (await import('./demo.js')).registerDemoCommand },
  { commands: ['ingest'], load: async () => (await import('./ingest.js')).registerIngestCommand },
  { commands: ['embed'], load: async () => (await import('./embed.js')).registerEmbedCommand },
  { commands: ['redact'], load: async () => (await import('./redact.js')).registerRedactCommand },
  { commands: ['sources', 'stats'], load: async () => (await import('./store-info.js')).registerStoreInfoCommands },
  {
    commands: ['index', 'sessions', 'search', 'read', 'skill'],
    load: async () => (await import('./retrieval.js')).registerRetrievalCommands,
  },
  {
    commands: ['history-index', 'markers', 'topics'],
    load: async () => (await import('./history-index.js')).registerHistoryIndexCommand,
  },
  { commands: ['logbook'], load: async () => (await import('./logbook.js')).registerLogbookCommand },
  { commands: ['llm'], load: async () => (await import('./llm.js')).registerLlmCommand },
  { commands: ['pack'], load: async () => (await import('./pack.js')).registerPackCommand },
  { commands: ['map'], load: async () => (await import('./map.js')).registerMapCommand },
  { commands: ['mcp'], load: async () => (await import('./mcp.js')).registerMcpCommand },
  { commands: ['ui', 'blame', 'export'], load: async () => (await import('./ui.js')).registerUiCommands },
  { commands: ['hook'], load: async () => (await import('./hook.js')).registerHookCommand },
  { commands: ['remote', 'push'], load: async () => (await import('./remote.js')).registerRemoteCommands },
  { commands: ['doctor'], load: async () => (await import('./doctor.js')).registerDoctorCommand },
];

/** The command word in argv (the first argument that is not an option), if any. */
function commandWord(argv: string[]): string | undefined {
  return argv.find((arg) => !arg.startsWith('-'));
}

/** Registers the group of the command being run, or every group (help, unknown commands). */
export async function registerCommands(program: Command, io: CliIo, argv: string[] = []): Promise<void> {
  const word = commandWord(argv);
  if (word === undefined && (argv.includes('-V') || argv.includes('--version'))) return;
  const only = word === undefined ? undefined : GROUPS.find((g) => g.commands.includes(word));
  for (const group of only ? [only] : GROUPS) (await group.load())(program, io);
}
