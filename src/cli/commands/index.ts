// Owns the list of CLI command groups; each group registers itself on the program.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export function registerCommands(program: Command, io: CliIo): void {
  // One line per command group (keep this list; edit with precise insertions).
  void program;
  void io;
}
