// Owns recognising the context Codex injects into user-role items (AGENTS.md, environment, plugin lists,
// referenced ChatGPT conversations): such text is context, never something a person typed, so it never
// becomes a prompt or a session title.
import type { Block } from '../../shared/model.js';

const INJECTED_PREFIXES: Array<[RegExp, string]> = [
  [/^<user_instructions>/, 'user_instructions'],
  [/^<environment_context>/, 'environment_context'],
  [/^<turn_aborted>/, 'turn_aborted'],
  // Codex Desktop writes the header without the folder (`# AGENTS.md instructions\n\n<INSTRUCTIONS>`).
  [/^# AGENTS\.md instructions\b/, 'agents_md'],
  [/^<INSTRUCTIONS>/, 'agents_md'],
  [/^<permissions instructions>/, 'permissions_instructions'],
  [/^<subagent_notification>/, 'subagent_notification'],
  [/^<collaboration_mode>/, 'collaboration_mode'],
  // A `!command` the person ran in the shell: its record, not a prompt.
  [/^<user_shell_command>/, 'user_shell_command'],
  // Review results handed back to the main thread (templates/review/exit_success.xml), skill bodies and lists.
  [/^<user_action>/, 'user_action'],
  [/^<skill>/, 'skill'],
  [/^<skills_instructions>/, 'skills_instructions'],
  [/^<recommended_plugins>/, 'recommended_plugins'],
  [/^<app-context>/, 'app_context'],
  [/^<codex_internal_context\b/, 'codex_internal_context'],
  [/^<model_switch>/, 'model_switch'],
  [/^<multi_agent_mode>/, 'multi_agent_mode'],
  [/^# Files mentioned by the user\b/, 'files_mentioned'],
  [/^## Referenced ChatGPT conversation:/, 'chatgpt_reference'],
];

/** The injected-context tag a text starts with, if any. */
export function injectedTag(text: string): string | undefined {
  const t = text.trimStart();
  for (const [re, tag] of INJECTED_PREFIXES) if (re.test(t)) return tag;
  return undefined;
}

/** Codex Desktop puts the person's words after this marker, in the same part as the referenced conversation. */
const REQUEST_MARKER = '## My request for Codex:';

/**
 * Marks each injected text block as noise (its own tag); context followed by `## My request for Codex:` is
 * split so the request typed after it stays a block of its own. True when some text block is left that a person typed.
 */
export function markInjectedBlocks(blocks: Block[]): boolean {
  let typed = false;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as Block;
    if (b.kind !== 'text') continue;
    const tag = injectedTag(b.text);
    if (!tag) {
      typed = true;
      continue;
    }
    b.noise = tag;
    const at = b.text.indexOf(REQUEST_MARKER);
    const request = at >= 0 ? b.text.slice(at + REQUEST_MARKER.length).trim() : '';
    if (request) {
      b.text = b.text.slice(0, at).trimEnd();
      blocks.splice(i + 1, 0, { kind: 'text', text: request });
    }
  }
  return typed;
}
