// Owns the list of source adapters strata knows, in detection priority order.
import type { AgentName } from '../shared/model.js';
import type { SourceAdapter } from './types.js';
import { claudeCodeAdapter } from './claude-code/index.js';
import { puffinAdapter } from './puffin/index.js';
import { aiderAdapter } from './aider/index.js';
import { opencodeAdapter } from './opencode/index.js';
import { codexAdapter } from './codex/index.js';
import { geminiAdapter } from './gemini/index.js';
import { clineAdapter } from './cline/index.js';
import { copilotCliAdapter } from './copilot-cli/index.js';
import { specstoryAdapter } from './specstory/index.js';
import { vscodeCopilotAdapter } from './vscode-copilot/index.js';
import { cursorAdapter } from './cursor/index.js';
import { crushAdapter } from './crush/index.js';
import { zedAdapter } from './zed/index.js';
import { warpAdapter } from './warp/index.js';
import { qwenAdapter } from './qwen/index.js';
import { kimiAdapter } from './kimi/index.js';
import { openclawAdapter } from './openclaw/index.js';
import { piAdapter } from './pi/index.js';
import { continueAdapter } from './continue/index.js';
import { ampAdapter } from './amp/index.js';
import { gooseAdapter } from './goose/index.js';
import { droidAdapter } from './droid/index.js';

// Adapters register here (one import + one array entry each).
export const ADAPTERS: SourceAdapter[] = [
  claudeCodeAdapter,
  puffinAdapter,
  aiderAdapter,
  opencodeAdapter,
  codexAdapter,
  geminiAdapter,
  clineAdapter,
  copilotCliAdapter,
  specstoryAdapter,
  vscodeCopilotAdapter,
  cursorAdapter,
  crushAdapter,
  zedAdapter,
  warpAdapter,
  qwenAdapter,
  kimiAdapter,
  openclawAdapter,
  piAdapter,
  continueAdapter,
  ampAdapter,
  gooseAdapter,
  droidAdapter,
];

export function adapterFor(agent: AgentName): SourceAdapter | undefined {
  return ADAPTERS.find((a) => a.agent === agent);
}
