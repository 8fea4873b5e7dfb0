import { describe, expect, it } from 'vitest';
import { injectedTag } from './items.js';

describe('injected Codex items', () => {
  it('marks a Codex user shell command as injected, not a prompt', () => {
    expect(injectedTag('<user_shell_command>\n<command>ls</command>\n</user_shell_command>')).toBe(
      'user_shell_command',
    );
  });
});
