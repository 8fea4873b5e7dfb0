// Owns where Claude Code keeps transcripts: default roots, discovery of session and subagent files,
// what a file name says (main session vs subagent and its relation) and the small sidecar files
// (`agent-<id>.meta.json`, `tool-results/<id>.txt`) the parser reads beside a transcript.
import { readRegularFileHead } from '../../shared/regular-file.js';
import { basename, dirname, join } from 'node:path';
import type { SessionRelation } from '../../shared/model.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { isObject, str } from './schema.js';
import { findFiles } from '../find-files.js';

export function claudeCodeDefaultRoots(env: Env): string[] {
  const roots: string[] = [];
  for (const dir of (env.CLAUDE_CONFIG_DIR ?? '').split(',')) {
    if (dir.trim()) roots.push(join(dir.trim(), 'projects'));
  }
  const home = homeDir(env);
  roots.push(join(home, '.claude', 'projects'), join(home, '.config', 'claude', 'projects'));
  return [...new Set(roots)];
}

const SKIPPED_DIRS = new Set(['tool-results', 'node_modules', '.git']);
const MAX_DEPTH = 6;

/**
 * Every transcript under `root`: `<slug>/<sessionId>.jsonl`, older `<slug>/agent-<id>.jsonl` and newer
 * `<slug>/<sessionId>/subagents/agent-<id>.jsonl`. Skips `tool-results/` folders, `sessions-index.json`
 * and the prompt log; does not follow directory symlinks. Sorted for determinism.
 */
export function discoverClaudeCodeFiles(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: MAX_DEPTH,
    skipDirs: SKIPPED_DIRS,
    match: (name) => name.endsWith('.jsonl') && name !== 'history.jsonl',
  });
}

/** What the file name tells: a subagent transcript (`agent-<id>.jsonl`) or a main session. */
export interface TranscriptFileInfo {
  /** Agent id from an `agent-<id>.jsonl` name, without the `agent-` prefix. */
  agentId?: string;
  /** File name without `.jsonl` (a main session file is named after its session id). */
  stem: string;
}

export function transcriptFileInfo(path: string): TranscriptFileInfo {
  const name = basename(path);
  const stem = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : name;
  const match = /^agent-(.+)$/.exec(stem);
  return match?.[1] ? { agentId: match[1], stem } : { stem };
}

/** Session key of a subagent transcript: `agent-<id>` (the file name stem). */
export function subagentSessionKey(agentId: string): string {
  return `agent-${agentId}`;
}

export function relationForAgentId(agentId: string): SessionRelation {
  if (agentId.startsWith('acompact-')) return 'compaction';
  if (agentId.startsWith('aside_question-')) return 'side_question';
  if (agentId.startsWith('aprompt_suggestion-')) return 'prompt_suggestion';
  return 'subagent';
}

/**
 * Reads up to `maxBytes` of a regular file as UTF-8; undefined when it cannot be read, is not a regular
 * file (a FIFO would block), or is a symlink.
 */
export function readFileHead(path: string, maxBytes: number): { text: string; size: number } | undefined {
  try {
    const { bytes, size } = readRegularFileHead(path, maxBytes, { followSymlinks: false });
    return { text: bytes.toString('utf8'), size };
  } catch {
    return undefined;
  }
}

/** `{agentType, description}` from the `agent-<id>.meta.json` beside a subagent transcript. */
export function readSubagentMeta(transcriptPath: string): Record<string, string> | undefined {
  if (!transcriptPath.endsWith('.jsonl')) return undefined;
  const file = readFileHead(transcriptPath.slice(0, -'.jsonl'.length) + '.meta.json', 64 * 1024);
  if (!file || file.size > 64 * 1024) return undefined;
  try {
    const value: unknown = JSON.parse(file.text);
    if (!isObject(value)) return undefined;
    const meta: Record<string, string> = {};
    const agentType = str(value.agentType);
    const description = str(value.description);
    if (agentType) meta.agentType = agentType;
    if (description) meta.description = description;
    return Object.keys(meta).length > 0 ? meta : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the full output of a persisted tool result may live: `<slug>/<sessionId>/tool-results/<name>`,
 * seen from a main transcript (`<slug>/<sessionId>.jsonl`) or a subagent one
 * (`<slug>/<sessionId>/subagents/agent-<id>.jsonl`). `name` is reduced to a plain file name.
 */
/** The session folder a sidecar of this transcript must lie in (`<slug>/<sessionId>`), resolved or not. */
export function sidecarFolder(transcriptPath: string, sessionId: string | undefined): string | undefined {
  const dir = dirname(transcriptPath);
  if (basename(dir) === 'subagents') return dirname(dir);
  if (!sessionId || sessionId.includes('/') || sessionId.includes('\\') || sessionId === '.' || sessionId === '..')
    return undefined;
  return join(dir, sessionId);
}

export function sidecarCandidates(transcriptPath: string, sessionId: string | undefined, name: string): string[] {
  const file = basename(name.replaceAll('\\', '/'));
  if (!file || file === '.' || file === '..') return [];
  const dir = dirname(transcriptPath);
  const candidates: string[] = [];
  if (sessionId && !sessionId.includes('/') && !sessionId.includes('\\')) {
    candidates.push(join(dir, sessionId, 'tool-results', file));
  }
  if (basename(dir) === 'subagents') candidates.push(join(dirname(dir), 'tool-results', file));
  return candidates;
}
