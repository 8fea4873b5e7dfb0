import { defineConfig } from 'vitest/config';

// Timeouts are hang guards, not speed checks: CI may run on a machine loaded many times over.
// Tests never block their worker's event loop for long (the CLI runs as an async child), since a
// worker that cannot answer vitest's own RPC within 60 s fails the run though every test passed.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-tmp.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
    pool: 'forks',
    env: { TZ: 'UTC', NO_COLOR: '1' },
  },
});
