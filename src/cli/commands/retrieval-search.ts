// Owns `strata search`.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export function registerSearchCommand(_program: Command, _io: CliIo): void {}
