// Real Amp threads (test/fixtures/real-extra/amp, provenance in SOURCES.tsv; Amp CLI of October 2025): every
// count recomputed here from the raw documents: prompts, replies, tool calls and results, output tokens,
// titles from the thread's own `title`, the project from its workspace tree, and reply times from the ledger.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { ampAdapter } from './index.js';
import { parseAmpFile } from './parser.js';
import { ampDefaultRoots } from './paths.js';

type J = Record<string, any>;
const ROOT = join(REAL_EXTRA, 'amp', 'club-dashboard', 'threads');
const FILES = ampAdapter.discover(ROOT);
const parts = (doc: J, role: string) => (doc.messages as J[]).filter((m) => m.role === role).flatMap((m) => m.content);

describe('Amp threads (real)', () => {
  it('finds the three threads, and looks under the XDG data folder', () => {
    expect(FILES).toHaveLength(3);
    for (const f of FILES) expect(ampAdapter.detect(f, readFileSync(f, 'utf8').slice(0, 4096))).toBe(true);
    expect(ampDefaultRoots({ HOME: '/h' })).toEqual(['/h/.local/share/amp/threads']);
    expect(ampDefaultRoots({ HOME: '/h', XDG_DATA_HOME: '/x' })).toEqual(['/x/amp/threads']);
    expect(ampAdapter.explain?.('/h/.local/share/amp/history.jsonl')).toMatch(/prompt history/);
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its raw document`, async () => {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as J;
      const out = await parseAmpFile({ path: file });
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toEqual([
        expect.objectContaining({ key: doc.id, title: doc.title, project: '/home/runner/workspace' }),
      ]);
      const userText = (doc.messages as J[]).filter(
        (m) => m.role === 'user' && m.content.some((p: J) => p.type === 'text'),
      );
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks[0]?.text)).toEqual(
        userText.map((m) => m.content.find((p: J) => p.type === 'text').text),
      );
      expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.timestamp)).toEqual(
        userText.map((m) => new Date(m.meta.sentAt).toISOString()),
      );
      const replies = (doc.messages as J[]).filter((m) => m.role === 'assistant');
      expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(replies.length);
      const blocks = out.messages.flatMap((m) => m.blocks);
      const uses = parts(doc, 'assistant').filter((p) => p.type === 'tool_use');
      expect(blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.toolName, b.toolCallId])).toEqual(
        uses.map((p) => [p.name, p.id]),
      );
      const results = parts(doc, 'user').filter((p) => p.type === 'tool_result');
      expect(blocks.filter((b) => b.kind === 'tool_result').map((b) => b.toolCallId)).toEqual(
        results.map((p) => p.toolUseID),
      );
      expect(blocks.filter((b) => b.kind === 'thinking')).toHaveLength(
        parts(doc, 'assistant').filter((p) => p.type === 'thinking').length,
      );
      const output = replies.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0);
      expect(out.messages.reduce((n, m) => n + (m.usage?.outputTokens ?? 0), 0)).toBe(output);
      const ledger = (doc.usageLedger.events as J[]).filter((e) => e.operationType === 'inference');
      expect(out.messages.filter((m) => m.role === 'assistant').map((m) => m.timestamp)).toEqual(
        replies.map((m) => ledger.find((e) => e.toMessageId === m.messageId)?.timestamp),
      );
    });
  }

  it('stores the three threads through the ingest, titled by Amp, a tool run cut short kept', async () => {
    const dir = tempDir('strata-amp-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      const res = await ingest({ store, paths: [ROOT], adapters: [ampAdapter], env: {}, cwd: dir });
      expect({ files: res.filesIngested, messages: res.messagesAdded }).toEqual({
        files: 3,
        messages: FILES.reduce((n, f) => n + JSON.parse(readFileSync(f, 'utf8')).messages.length, 0),
      });
      const titles = store.db.prepare('SELECT title FROM sessions ORDER BY external_id').all();
      expect(titles).toEqual([
        { title: 'Greeting and initial interaction' },
        { title: 'User logout process' },
        { title: 'Welcome to coding assistance' },
      ]);
      const cut = (await parseAmpFile({ path: FILES[1]! })).messages.at(-1)!.blocks.at(-1)!;
      expect(cut).toMatchObject({ kind: 'tool_result', text: 'No results found.', meta: { status: 'in-progress' } });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
