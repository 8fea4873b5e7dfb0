// Owns the Claude Code source adapter (JSONL transcripts under ~/.claude/projects): detect → discover →
// parseLines, wired from paths.ts (roots, discovery), schema.ts (record guards) and parser.ts.
import type { LineAdapter } from '../types.js';
import { parseClaudeCodeLines } from './parser.js';
import { claudeCodeDefaultRoots, discoverClaudeCodeFiles } from './paths.js';
import { headLooksLikeClaudeCode } from './schema.js';

export const claudeCodeAdapter: LineAdapter = {
  agent: 'claude-code',
  displayName: 'Claude Code',
  format: 'lines',
  defaultRoots: claudeCodeDefaultRoots,
  detect: (path, head) => path.endsWith('.jsonl') && headLooksLikeClaudeCode(head),
  discover: discoverClaudeCodeFiles,
  parseLines: parseClaudeCodeLines,
};
