// Real Continue sessions (test/fixtures/real-extra/continue; September 2024), every count recomputed here
// from the raw documents: prompts and replies, the title, the project and the creation time of sessions.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA } from '../../../test/support/paths.js';
import { ADAPTERS } from '../registry.js';
import { continueAdapter } from './index.js';
import { parseContinueFile } from './parser.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'continue');
const FILES = continueAdapter.discover(ROOT);
const text = (c: unknown) => (typeof c === 'string' ? c : (c as J[]).map((p) => p.text ?? '').join('\n'));

describe('Continue sessions (real files)', () => {
  it('finds the three sessions and explains the session list beside them', () => {
    expect(FILES).toHaveLength(3);
    expect(continueAdapter.explain?.(join(ROOT, 'dimitrijagj-dotfiles', 'sessions', 'sessions.json'))).toMatch(
      /session list/,
    );
    // The first adapter that explains a file is the one the report quotes: it must be Continue's.
    const index = join(ROOT, 'dimitrijagj-dotfiles', 'sessions', 'sessions.json');
    expect(ADAPTERS.map((a) => a.explain?.(index)).find(Boolean)).toMatch(/^Continue session list/);
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw history`, async () => {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as J;
      const list = JSON.parse(readFileSync(join(file, '..', 'sessions.json'), 'utf8')) as J[];
      const history = (doc.history as J[]).map((h) => h.message as J);
      const out = await parseContinueFile({ path: file });
      expect(out.malformed).toEqual([]);
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks[0]?.text)).toEqual(
        history.filter((m) => m.role === 'user').map((m) => text(m.content)),
      );
      expect(out.messages.filter((m) => m.kind === 'response')).toHaveLength(
        history.filter((m) => m.role === 'assistant').length,
      );
      const created = new Date(Number(list.find((r) => r.sessionId === doc.sessionId)?.dateCreated)).toISOString();
      expect(new Set(out.messages.map((m) => m.timestamp))).toEqual(new Set([created]));
      const [session] = out.sessions;
      expect(session).toMatchObject({ key: doc.sessionId, title: doc.title });
      expect(session?.project).toBe(doc.workspaceDirectory || undefined);
    });
  }
});
