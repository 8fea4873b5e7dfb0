// A subagent has no typed prompt: its title is the task its parent gave it, not empty.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/db.js';
import { ingest } from './ingest.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('subagent titles', () => {
  it('names a subagent session by its task', async () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-subagent-'));
    const folder = join(dir, 'projects', '-tmp-app', 'parent-1', 'subagents');
    mkdirSync(folder, { recursive: true });
    const base = { sessionId: 'parent-1', agentId: 'a65', isSidechain: true, cwd: '/tmp/app' };
    const lines = [
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        timestamp: '2026-04-29T21:31:00Z',
        message: { role: 'user', content: 'Fetch the README and return its install steps.' },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a1',
        timestamp: '2026-04-29T21:31:05Z',
        message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Fetching.' }] },
      },
    ];
    writeFileSync(join(folder, 'agent-a65.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const store = openStore(join(dir, 'strata.db'));
    await ingest({ store, paths: [join(dir, 'projects')], env: { HOME: dir }, cwd: dir, pipeline: 'inline' });
    const prompts = store.db.prepare('SELECT first_prompt FROM session_stats').pluck().all();
    store.close();
    expect(prompts).toContain('Fetch the README and return its install steps.');
  });
});
