// Owns the list of CLI command groups; each group registers itself on the program.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { registerPackCommand } from './pack.js';
import { registerMapCommand } from './map.js';
import { registerIngestCommand } from './ingest.js';
import { registerDemoCommand } from './demo.js';
import { registerStoreInfoCommands } from './store-info.js';
import { registerRetrievalCommands } from './retrieval.js';
import { registerHistoryIndexCommand } from './history-index.js';
import { registerLlmCommand } from './llm.js';

export function registerCommands(program: Command, io: CliIo): void {
  // One line per command group (keep this list; edit with precise insertions).
  registerPackCommand(program, io);
  registerMapCommand(program, io);
  registerDemoCommand(program, io);
  registerIngestCommand(program, io);
  registerStoreInfoCommands(program, io);
  registerRetrievalCommands(program, io);
  registerHistoryIndexCommand(program, io);
  registerLlmCommand(program, io);
}
