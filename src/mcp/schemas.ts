// Owns the zod pieces several MCP tools share: agent names, time filters, field selectors, and the
// session heading every history tool returns.
import { z } from 'zod';
import { AGENTS, type AgentName } from '../shared/model.js';
import { parseTimeSpec } from '../shared/time.js';

export const agentsInput = z
  .array(z.enum(AGENTS))
  .min(1)
  .optional()
  .describe(`only these agents (${AGENTS.join(', ')})`);

export const timeInput = (what: string) =>
  z.string().min(1).optional().describe(`${what}: 30m, 2h, 7d, 1w or an ISO date`);

export const selectorsInput = (what: string) =>
  z
    .array(z.string().min(1))
    .optional()
    .describe(
      `${what}: user, assistant, thinking, system, summary, noise, tool, tool:<Name>, tool:<Name>:input|result`,
    );

export const sessionHeading = {
  id: z.string(),
  shortId: z.string(),
  agent: z.string(),
  project: z.string().nullable(),
  title: z.string().nullable(),
  startedAt: z.string().nullable(),
};

export const tokensOutput = z.number().int().describe('tokens of the text block (o200k_base)');
/** History tools estimate (≈4 characters a token): exact counts would load a 70 MB tokenizer into the server. */
export const estimatedTokensOutput = z
  .number()
  .int()
  .describe('estimated tokens of the text block (≈4 characters a token)');

/** An ISO time from a time spec, or nothing. */
export function timeOption<K extends string>(key: K, spec: string | undefined): Partial<Record<K, string>> {
  return spec === undefined ? {} : ({ [key]: parseTimeSpec(spec) } as Record<K, string>);
}

export function agentOption(agents: AgentName[] | undefined): { agent?: AgentName[] } {
  return agents ? { agent: agents } : {};
}
