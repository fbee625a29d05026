import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // One graphql module for everything (vite would otherwise load it twice: "another realm").
    alias: { graphql: require.resolve('graphql/index.js') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    pool: 'forks',
    // Files of one worker share its server and database; tests isolate by company.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { OUTBOX_LOG: 'silent' },
  },
});
