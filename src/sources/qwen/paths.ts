// Owns where Qwen Code keeps its chats: `<runtime dir>/projects/<sanitized cwd>/chats/<session id>.jsonl`, the
// runtime dir being `$QWEN_RUNTIME_DIR`, else `~/.qwen` (on Windows `%USERPROFILE%\.qwen`). Qwen Code's
// `tmp/<project hash>/` holds prompt logs and tool output files, not chats.
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export function qwenDefaultRoots(env: Env): string[] {
  const roots = [env.QWEN_RUNTIME_DIR, join(homeDir(env), '.qwen')]
    .filter((r): r is string => typeof r === 'string' && r !== '')
    .map((r) => join(r, 'projects'));
  return [...new Set(roots)];
}

/** True for `…/<project>/chats/<name>.jsonl` (Gemini CLI's chats are named `session-*`). */
export function isQwenChatPath(path: string): boolean {
  const name = basename(path);
  return name.endsWith('.jsonl') && !name.startsWith('session-') && basename(dirname(path)) === 'chats';
}

/** Every chat under `root` (normally `~/.qwen/projects`; `~/.qwen` or any folder above works too). */
export function discoverQwenChats(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: 4,
    match: (name, dir) => isQwenChatPath(join(dir, name)),
  });
}
