// Owns the Claude Code source adapter (JSONL transcripts under ~/.claude/projects): detect → discover →
// parseLines, wired from paths.ts (roots, discovery), schema.ts (record guards) and parser.ts.
import type { LineAdapter } from '../types.js';
import { parseClaudeCodeLines } from './parser.js';
import { claudeCodeDefaultRoots, discoverClaudeCodeFiles } from './paths.js';
import { headLooksLikeClaudeCode } from './schema.js';

export const claudeCodeAdapter: LineAdapter = {
  agent: 'claude-code',
  displayName: 'Claude Code',
  locations: '`~/.claude/projects`, `~/.config/claude/projects`, `$CLAUDE_CONFIG_DIR/projects`',
  formats: [
    '`<session id>.jsonl` transcripts',
    'subagents (`subagents/agent-<id>.jsonl`)',
    'compaction summaries',
    'tool-result sidecars',
  ],
  format: 'lines',
  defaultRoots: claudeCodeDefaultRoots,
  detect: (path, head) => path.endsWith('.jsonl') && headLooksLikeClaudeCode(head),
  discover: discoverClaudeCodeFiles,
  explain: (path) => {
    if (/\/subagents\/agent-[^/]+\.meta\.json$/.test(path))
      return 'Claude Code subagent metadata: read together with its agent-*.jsonl transcript';
    if (path.endsWith('/sessions-index.json'))
      return 'Claude Code sessions index: a cache of session titles, not a transcript';
    if (/\/tool-results\/[^/]+\.txt$/.test(path))
      return 'Claude Code tool-result sidecar: read with the transcript that references it';
    return undefined;
  },
  parseLines: parseClaudeCodeLines,
};
