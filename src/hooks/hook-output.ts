// Owns the JSON each client expects on stdout from a session-start hook that adds context.
import type { HookClient } from './payload.js';

export function sessionStartOutput(client: HookClient, context: string): Record<string, unknown> {
  switch (client) {
    case 'cursor':
      return { additional_context: context };
    case 'opencode':
      return { additionalContext: context };
    default:
      // Claude Code, Codex and Gemini CLI share this shape.
      return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } };
  }
}
