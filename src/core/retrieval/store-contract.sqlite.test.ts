// The store contract (test/support/store-contract.ts) on the local SQLite store.
import { rmSync } from 'node:fs';
import { CONTRACT_HOME, contractStore, storeContract } from '../../../test/support/store-contract.js';
import { tempDir } from '../../../test/support/paths.js';
import { sqliteReader } from './session-reader.js';

storeContract(
  'SQLite',
  async () => {
    const dir = tempDir('strata-contract-');
    const store = await contractStore(dir);
    const reader = sqliteReader(store.db, CONTRACT_HOME);
    return {
      ...reader,
      async close() {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { keywordsMatchAnyWord: false, agentWithMachine: undefined, localOnlySearchRefused: false },
);
