// A real Codex Desktop rollout (test/fixtures/real-extra): the AGENTS.md header it injects carries no folder,
// and must neither count as a prompt nor title the session. Counts are recounted here from the raw records.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import type { Block } from '../../shared/model.js';
import { openStore } from '../../store/db.js';
import { codexAdapter } from './index.js';
import { markInjectedBlocks } from './injected.js';

const FILE = join(
  REAL_EXTRA,
  'codex/adioclassmate-dotfile/archived_sessions',
  'rollout-2026-07-03T15-12-18-019f26d2-378f-7123-aaab-925df3e2bf7b.jsonl',
);

type J = Record<string, any>;
const records = (): J[] =>
  readFileSync(FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as J);

describe('Codex Desktop rollout (real file)', () => {
  it('counts as prompts only what the person typed (the user_message events), never the AGENTS.md header', async () => {
    const typed = records()
      .filter((r) => r.type === 'event_msg' && r.payload.type === 'user_message')
      .map((r) => String(r.payload.message).trim());
    expect(typed).toHaveLength(2);
    const lines = readFileSync(FILE, 'utf8')
      .split('\n')
      .map((text, i) => ({ text, line: i + 1 }))
      .filter((l) => l.text);
    const out = codexAdapter.format === 'lines' ? codexAdapter.parseLines(lines, { path: FILE }) : undefined;
    const prompts = (out?.messages ?? []).filter((m) => m.kind === 'prompt');
    expect(prompts.map((m) => m.blocks.map((b) => b.text.trim()).join(''))).toEqual(typed);
  });

  it('titles the session with the first typed prompt', async () => {
    const dir = tempDir('strata-codex-desktop-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      await ingest({ store, paths: [FILE], adapters: [codexAdapter], env: {}, cwd: dir });
      const row = store.db
        .prepare(`SELECT COALESCE(s.title, st.first_prompt) AS title
          FROM sessions s JOIN session_stats st ON st.session_id = s.id`)
        .get() as { title: string };
      expect(row.title).toBe('ubpb_c4_342M_sdar_g1这个jobs失败了，你能看到失败原因吗？');
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('injected context beside typed text', () => {
  it('keeps the request typed after a referenced ChatGPT conversation as a block of its own', () => {
    const blocks: Block[] = [
      { kind: 'text', text: '<recommended_plugins>\n- GitHub\n</recommended_plugins>' },
      {
        kind: 'text',
        text: '## Referenced ChatGPT conversation:\n{"conversationId":"c1"}\n## My request for Codex:\nfix the build',
      },
    ];
    expect(markInjectedBlocks(blocks)).toBe(true);
    expect(blocks.map((b) => [b.noise, b.text])).toEqual([
      ['recommended_plugins', '<recommended_plugins>\n- GitHub\n</recommended_plugins>'],
      ['chatgpt_reference', '## Referenced ChatGPT conversation:\n{"conversationId":"c1"}'],
      [undefined, 'fix the build'],
    ]);
  });

  it('reads a message holding only injected parts as context', () => {
    const blocks: Block[] = [
      { kind: 'text', text: '# AGENTS.md instructions\n\n<INSTRUCTIONS>x</INSTRUCTIONS>' },
      { kind: 'text', text: '<environment_context>\n<cwd>/w</cwd>\n</environment_context>' },
    ];
    expect(markInjectedBlocks(blocks)).toBe(false);
    expect(blocks.map((b) => b.noise)).toEqual(['agents_md', 'environment_context']);
  });
});

describe('Codex 0.146 records', () => {
  it('takes the model of a thread_settings_applied event and counts world_state by name', () => {
    const rec = (type: string, payload: J) => JSON.stringify({ timestamp: '2026-08-08T12:00:00Z', type, payload });
    const lines = [
      rec('session_meta', { id: 's1', cwd: '/w' }),
      rec('world_state', { full: true, state: {} }),
      rec('event_msg', { type: 'thread_settings_applied', thread_settings: { model: 'gpt-5.6' } }),
      rec('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] }),
    ].map((text, i) => ({ text, line: i + 1 }));
    const out = codexAdapter.format === 'lines' ? codexAdapter.parseLines(lines, { path: '/x/s1.jsonl' }) : undefined;
    expect(out?.messages.map((m) => m.model)).toEqual(['gpt-5.6']);
    expect(out?.skipped).toEqual({ world_state: 1, 'event_msg:thread_settings_applied': 1 });
  });

  it('keeps the first session_meta as the session and counts the later ones (Codex Desktop writes several)', () => {
    const rec = (type: string, payload: J) => JSON.stringify({ timestamp: '2026-08-08T12:00:00Z', type, payload });
    const lines = [
      rec('session_meta', { id: 's1', cwd: '/w', originator: 'Codex Desktop' }),
      rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }),
      rec('session_meta', { id: 's1', cwd: '/w', originator: 'Codex Desktop' }),
      rec('session_meta', { id: 's0', cwd: '/elsewhere' }),
    ].map((text, i) => ({ text, line: i + 1 }));
    const out = codexAdapter.format === 'lines' ? codexAdapter.parseLines(lines, { path: '/x/s1.jsonl' }) : undefined;
    expect(out?.sessions.map((s) => [s.key, s.project])).toEqual([['s1', '/w']]);
    expect(out?.malformed).toEqual([]);
    expect(out?.skipped['session_meta:extra']).toBe(2);
    expect(out?.messages.map((m) => m.kind)).toEqual(['prompt']);
  });
});
