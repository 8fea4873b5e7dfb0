// Owns option parsing shared by several commands (agent lists, positive integers).
import { AGENTS, type AgentName } from '../../shared/model.js';
import { usageError } from '../../shared/errors.js';

export function parseAgentList(value: string | undefined): AgentName[] | undefined {
  if (!value) return undefined;
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    if (!(AGENTS as readonly string[]).includes(name)) throw usageError(`unknown agent "${name}"; known agents: ${AGENTS.join(', ')}`);
  }
  return names as AgentName[];
}

export function parsePositiveInt(value: string, name = 'value'): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw usageError(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}
