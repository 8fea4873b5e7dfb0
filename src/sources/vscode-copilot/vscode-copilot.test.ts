// Real VS Code Copilot Chat exports (test/fixtures/real-extra/vscode-copilot: May and August 2025), every
// count recomputed here from the raw JSON: prompts, replies, tool invocations, edited files.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { vscodeCopilotAdapter } from './index.js';
import { parseVscodeChat } from './parser.js';
import { vscodeCopilotDefaultRoots } from './paths.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'vscode-copilot');
const FILES = ['hashtag-curso-python', 'copilot-prompt-logger'].map((d) => join(ROOT, d, '.vscode', 'chat.json'));

function recount(path: string) {
  const requests = (JSON.parse(readFileSync(path, 'utf8')) as J).requests as J[];
  const parts = requests.flatMap((r) => (r.response ?? []) as J[]);
  return {
    prompts: requests.filter((r) => String(r.message?.text ?? '').trim()).length,
    replies: requests.filter((r) =>
      (r.response ?? []).some(
        (p: J) =>
          (p.kind === undefined && String(p.value ?? '').trim()) ||
          p.kind === 'toolInvocationSerialized' ||
          p.kind === 'textEditGroup',
      ),
    ).length,
    toolCalls: parts.filter((p) => p.kind === 'toolInvocationSerialized' || p.kind === 'textEditGroup').length,
    editedFiles: new Set(parts.filter((p) => p.kind === 'textEditGroup').map((p) => p.uri.path)).size,
    firstTime: requests[0]?.timestamp as number,
  };
}

describe('VS Code Copilot Chat exports (real files)', () => {
  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw JSON`, async () => {
      expect(vscodeCopilotAdapter.detect(file, readFileSync(file, 'utf8').slice(0, 4096))).toBe(true);
      const expected = recount(file);
      const out = parseVscodeChat(file);
      expect(out.malformed).toEqual([]);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(expected.prompts);
      expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(expected.replies);
      expect(out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call')).toHaveLength(
        expected.toolCalls,
      );
      expect(out.messages[0]?.timestamp).toBe(new Date(expected.firstTime).toISOString());
      const dir = tempDir('strata-vscode-');
      const store = openStore(join(dir, 'strata.db'));
      try {
        await ingest({ store, paths: [file], adapters: [vscodeCopilotAdapter], env: {}, cwd: dir });
        const row = store.db.prepare('SELECT files FROM session_stats').get() as { files: string };
        expect(Object.keys(JSON.parse(row.files))).toHaveLength(expected.editedFiles);
      } finally {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('looks in VS Code, Insiders and VSCodium on Linux, macOS and Windows', () => {
    expect(vscodeCopilotDefaultRoots({ HOME: '/h' }, 'linux')).toContain('/h/.config/Code/User/workspaceStorage');
    expect(vscodeCopilotDefaultRoots({ HOME: '/Users/a' }, 'darwin')).toContain(
      '/Users/a/Library/Application Support/Code - Insiders/User/globalStorage/emptyWindowChatSessions',
    );
    expect(vscodeCopilotDefaultRoots({ HOME: '/h', APPDATA: '/h/AppData/Roaming' }, 'win32')).toContain(
      join('/h/AppData/Roaming', 'VSCodium', 'User', 'workspaceStorage'),
    );
  });
});
