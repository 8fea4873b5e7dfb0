// Owns the list of source adapters strata knows, in detection priority order.
import type { AgentName } from '../shared/model.js';
import type { SourceAdapter } from './types.js';
import { puffinAdapter } from './puffin/index.js';

// Adapters register here (one import + one array entry each).
export const ADAPTERS: SourceAdapter[] = [
  puffinAdapter,
];

export function adapterFor(agent: AgentName): SourceAdapter | undefined {
  return ADAPTERS.find((a) => a.agent === agent);
}
