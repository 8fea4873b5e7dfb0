// The store contract (test/support/store-contract.ts) on the team store: the fixture store pushed to a
// throwaway PostgreSQL cluster and read back through the remote SessionReader.
import { describe } from 'vitest';
import { rmSync } from 'node:fs';
import { contractStore, storeContract } from '../../../test/support/store-contract.js';
import { tempDir } from '../../../test/support/paths.js';
import { postgresMissing, startCluster, type TestCluster } from '../../../test/support/postgres.js';
import { connectTeamStore, migrateTeamStore } from '../../store/team/pg-client.js';
import { pushStore } from './push.js';
import { postgresReader } from './remote-reader.js';

const missing = postgresMissing();
if (missing && process.env.CI) throw new Error(`store contract tests need PostgreSQL under CI: ${missing}`);
if (missing) console.warn(`skipping the PostgreSQL store contract: ${missing}`);

describe.skipIf(missing !== undefined)('PostgreSQL', () => {
  let cluster: TestCluster;
  storeContract(
    'PostgreSQL',
    async () => {
      cluster = await startCluster();
      const admin = await connectTeamStore(cluster.url());
      await admin.query('CREATE DATABASE strata');
      await admin.end();
      const client = await connectTeamStore(cluster.url('postgres', 'strata'));
      await migrateTeamStore(client);
      const dir = tempDir('strata-contract-');
      const store = await contractStore(dir);
      await pushStore(store.db, client, { machine: 'laptop-a', osUser: 'alice' });
      store.close();
      rmSync(dir, { recursive: true, force: true });
      // Questions weigh words by their share of blocks: the planner's statistics must exist.
      await client.query('ANALYZE strata.blocks');
      const reader = postgresReader(client, 'team');
      return {
        ...reader,
        async close() {
          await reader.close();
          await cluster.stop();
        },
      };
    },
    { keywordsMatchAnyWord: true, agentWithMachine: 'laptop-a', localOnlySearchRefused: true },
  );
});
