// Owns the OpenClaw source adapter: pi-format session JSONL under `~/.openclaw/agents/*/sessions/`, read
// incrementally. OpenClaw wraps what a person sends in metadata blocks and opens sessions with a startup
// instruction: both are injected context, not typed prompts.
import type { LineAdapter } from '../types.js';
import { discoverOpenclawSessions, explainOpenclawFile, isOpenclawSession, openclawDefaultRoots } from './paths.js';
import { parsePiSessionLines } from '../pi/session-format.js';

const STARTUP = /^A new session was started via \/new or \/reset\b/;
const METADATA_BLOCK = /^\s*[A-Z][\w ()-]*\(untrusted metadata\):\s*```(?:json)?\n[\s\S]*?\n```\s*/;

/** The typed part of an OpenClaw user text: without its leading metadata blocks and startup instructions. */
export function openclawTyped(text: string): string {
  if (STARTUP.test(text.trimStart())) return '';
  let rest = text;
  for (let m = METADATA_BLOCK.exec(rest); m; m = METADATA_BLOCK.exec(rest)) rest = rest.slice(m[0].length);
  return rest.trim();
}

export const openclawAdapter: LineAdapter = {
  agent: 'openclaw',
  displayName: 'OpenClaw',
  locations: '`$OPENCLAW_STATE_DIR/agents` or `~/.openclaw/agents`',
  formats: ['`<agent id>/sessions/<session id>.jsonl` (pi session format v3)'],
  format: 'lines',
  defaultRoots: openclawDefaultRoots,
  detect: (path, head) =>
    path.endsWith('.jsonl') && /^\{"type":"session","version":\d+,"id":"[^"]+"/.test(head) && isOpenclawSession(path),
  discover: discoverOpenclawSessions,
  explain: explainOpenclawFile,
  parseLines: (lines, ctx) => parsePiSessionLines(lines, ctx, 'openclaw', openclawTyped),
};
