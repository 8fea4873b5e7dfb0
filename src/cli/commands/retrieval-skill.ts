// Owns `strata skill install`.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export function registerSkillCommand(_program: Command, _io: CliIo): void {}
