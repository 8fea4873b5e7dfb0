// Owns removing the chat Gemini CLI records for a strata sub-call (it has no option to record none), so a
// sub-call's prompt is never read back as the user's own session. Only files of strata's own working
// folder, named by the call's session id, are touched; any failure leaves them in place.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Gemini's folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini` (as Gemini CLI resolves it). */
function geminiDir(env: Record<string, string | undefined>): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

export function removeGeminiSubcallChat(
  env: Record<string, string | undefined>,
  workDir: string,
  sessionId: string,
): void {
  const short = sessionId.replace(/[^\w-]/g, '').slice(0, 8);
  if (short.length < 8) return;
  try {
    const base = geminiDir(env);
    const projects = JSON.parse(readFileSync(join(base, 'projects.json'), 'utf8')) as {
      projects?: Record<string, unknown>;
    };
    const slug = projects.projects?.[resolve(workDir)];
    if (typeof slug !== 'string' || !/^[\w.-]+$/.test(slug)) return;
    const chats = join(base, 'tmp', slug, 'chats');
    for (const name of readdirSync(chats)) {
      if (name.startsWith('session-') && (name.endsWith(`-${short}.jsonl`) || name.endsWith(`-${short}.json`)))
        rmSync(join(chats, name), { force: true });
    }
  } catch {
    // Best effort: a chat left behind is only an extra session, never a failed call.
  }
}
