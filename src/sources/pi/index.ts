// Owns the pi coding agent source adapter: session JSONL under `~/.pi/agent/sessions/`, read incrementally
// with the session-format reader OpenClaw shares.
import type { LineAdapter } from '../types.js';
import { discoverPiSessions, isPiSessionFile, piDefaultRoots } from './paths.js';
import { parsePiSessionLines } from './session-format.js';

export const piAdapter: LineAdapter = {
  agent: 'pi',
  displayName: 'pi',
  locations: '`$PI_CODING_AGENT_DIR/sessions` or `~/.pi/agent/sessions`',
  formats: ['`--<cwd>--/<time>_<session id>.jsonl` (session format v1–v3)'],
  format: 'lines',
  defaultRoots: piDefaultRoots,
  detect: (path, head) => isPiSessionFile(path) && /^\{"type":"session"(,"version":\d+)?,"id":"[^"]+"/.test(head),
  discover: discoverPiSessions,
  parseLines: (lines, ctx) => parsePiSessionLines(lines, ctx, 'pi', (text) => text.trim()),
};
