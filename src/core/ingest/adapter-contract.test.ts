// Runs the source-adapter contract suite (test/support/adapter-contract.ts) through the real ingest engine
// against every adapter, each with its own small synthetic fixtures (test/support/contract-fixtures/).
import { AGENTS } from '../../shared/model.js';
import { describeAdapterContract } from '../../../test/support/adapter-contract.js';
import { aiderContractFixture } from '../../../test/support/contract-fixtures/aider.js';
import { aiderAdapter } from '../../sources/aider/index.js';
import { claudeCodeContractFixture } from '../../../test/support/contract-fixtures/claude-code.js';
import { claudeCodeAdapter } from '../../sources/claude-code/index.js';
import { codexContractFixture } from '../../../test/support/contract-fixtures/codex.js';
import { codexAdapter } from '../../sources/codex/index.js';
import { geminiContractFixture } from '../../../test/support/contract-fixtures/gemini.js';
import { geminiAdapter } from '../../sources/gemini/index.js';
import { opencodeContractFixture } from '../../../test/support/contract-fixtures/opencode.js';
import { opencodeAdapter } from '../../sources/opencode/index.js';
import { puffinContractFixture } from '../../../test/support/contract-fixtures/puffin.js';
import { puffinAdapter } from '../../sources/puffin/index.js';
import { clineContractFixture } from '../../../test/support/contract-fixtures/cline.js';
import { clineAdapter } from '../../sources/cline/index.js';
import { copilotCliContractFixture } from '../../../test/support/contract-fixtures/copilot-cli.js';
import { copilotCliAdapter } from '../../sources/copilot-cli/index.js';
import { specstoryContractFixture } from '../../../test/support/contract-fixtures/specstory.js';
import { specstoryAdapter } from '../../sources/specstory/index.js';
import { vscodeCopilotContractFixture } from '../../../test/support/contract-fixtures/vscode-copilot.js';
import { vscodeCopilotAdapter } from '../../sources/vscode-copilot/index.js';
import { cursorContractFixture } from '../../../test/support/contract-fixtures/cursor.js';
import { cursorAdapter } from '../../sources/cursor/index.js';
import { crushContractFixture } from '../../../test/support/contract-fixtures/crush.js';
import { crushAdapter } from '../../sources/crush/index.js';
import { zedContractFixture } from '../../../test/support/contract-fixtures/zed.js';
import { zedAdapter } from '../../sources/zed/index.js';
import { warpContractFixture } from '../../../test/support/contract-fixtures/warp.js';
import { warpAdapter } from '../../sources/warp/index.js';
import { qwenContractFixture } from '../../../test/support/contract-fixtures/qwen.js';
import { qwenAdapter } from '../../sources/qwen/index.js';
import { kimiContractFixture } from '../../../test/support/contract-fixtures/kimi.js';
import { kimiAdapter } from '../../sources/kimi/index.js';
import { openclawContractFixture } from '../../../test/support/contract-fixtures/openclaw.js';
import { openclawAdapter } from '../../sources/openclaw/index.js';
import { piContractFixture } from '../../../test/support/contract-fixtures/pi.js';
import { piAdapter } from '../../sources/pi/index.js';
import { continueContractFixture } from '../../../test/support/contract-fixtures/continue.js';
import { continueAdapter } from '../../sources/continue/index.js';
import { ampContractFixture } from '../../../test/support/contract-fixtures/amp.js';
import { ampAdapter } from '../../sources/amp/index.js';
import { gooseContractFixture } from '../../../test/support/contract-fixtures/goose.js';
import { gooseAdapter } from '../../sources/goose/index.js';
import { droidContractFixture } from '../../../test/support/contract-fixtures/droid.js';
import { droidAdapter } from '../../sources/droid/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ingest } from './ingest.js';
import { openStore } from '../../store/db.js';
import { ADAPTERS } from '../../sources/registry.js';

describeAdapterContract(claudeCodeAdapter, claudeCodeContractFixture);
describeAdapterContract(codexAdapter, codexContractFixture);
describeAdapterContract(geminiAdapter, geminiContractFixture);
describeAdapterContract(aiderAdapter, aiderContractFixture);
describeAdapterContract(opencodeAdapter, opencodeContractFixture);
describeAdapterContract(puffinAdapter, puffinContractFixture);
describeAdapterContract(clineAdapter, clineContractFixture);
describeAdapterContract(copilotCliAdapter, copilotCliContractFixture);
describeAdapterContract(specstoryAdapter, specstoryContractFixture);
describeAdapterContract(vscodeCopilotAdapter, vscodeCopilotContractFixture);
describeAdapterContract(cursorAdapter, cursorContractFixture);
describeAdapterContract(crushAdapter, crushContractFixture);
describeAdapterContract(zedAdapter, zedContractFixture);
describeAdapterContract(warpAdapter, warpContractFixture);
describeAdapterContract(qwenAdapter, qwenContractFixture);
describeAdapterContract(kimiAdapter, kimiContractFixture);
describeAdapterContract(openclawAdapter, openclawContractFixture);
describeAdapterContract(piAdapter, piContractFixture);
describeAdapterContract(continueAdapter, continueContractFixture);
describeAdapterContract(ampAdapter, ampContractFixture);
describeAdapterContract(gooseAdapter, gooseContractFixture);
describeAdapterContract(droidAdapter, droidContractFixture);

describe('adapter registry', () => {
  it('registers exactly one adapter per known agent, and it is the one the contract suite checks', () => {
    const checked = [
      claudeCodeAdapter,
      codexAdapter,
      geminiAdapter,
      aiderAdapter,
      opencodeAdapter,
      puffinAdapter,
      clineAdapter,
      copilotCliAdapter,
      specstoryAdapter,
      vscodeCopilotAdapter,
      cursorAdapter,
      crushAdapter,
      zedAdapter,
      warpAdapter,
      qwenAdapter,
      kimiAdapter,
      openclawAdapter,
      piAdapter,
      continueAdapter,
      ampAdapter,
      gooseAdapter,
      droidAdapter,
    ];
    expect(ADAPTERS.map((a) => a.agent).sort()).toEqual([...AGENTS].sort());
    for (const adapter of ADAPTERS) expect(checked).toContain(adapter);
  });
});

describe('opencode: a database OpenCode still holds open', () => {
  it('picks up messages that sit in the WAL (the database file keeps its size and mtime)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'strata-contract-wal-'));
    const path = join(root, 'opencode.db');
    opencodeContractFixture.minimal.write(path);
    const store = openStore(join(root, 'store', 'strata.db'));
    const live = new Database(path);
    try {
      const run = () => ingest({ store, paths: [path], adapters: [opencodeAdapter], env: {}, cwd: root });
      expect((await run()).messagesAdded).toBe(2);
      live.pragma('journal_mode = WAL');
      live.pragma('wal_autocheckpoint = 0');
      const t = 1_767_607_300_000;
      live
        .prepare("INSERT INTO message VALUES ('msg_3', 'ses_1', ?, ?, ?)")
        .run(t, t, JSON.stringify({ role: 'user', time: { created: t } }));
      live
        .prepare("INSERT INTO part VALUES ('prt_3a', 'msg_3', 'ses_1', ?, ?, ?)")
        .run(t, t, JSON.stringify({ type: 'text', text: 'one more question' }));
      const second = await run();
      expect({ added: second.messagesAdded, updated: second.messagesUpdated }).toEqual({ added: 1, updated: 0 });
      const third = await run();
      expect({ skipped: third.filesSkipped, added: third.messagesAdded }).toEqual({ skipped: 1, added: 0 });
      expect((store.db.prepare('SELECT COUNT(*) n FROM messages').get() as { n: number }).n).toBe(3);
    } finally {
      live.close();
      store.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
