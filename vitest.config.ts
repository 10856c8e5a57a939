import { defineConfig } from 'vitest/config';

// One test command for the whole repo; each workspace is a project with its own environment.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'media', root: 'packages/media', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 60_000 } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: { name: 'extension', root: 'apps/extension', include: ['test/**/*.test.ts'], environment: 'jsdom' },
      },
      {
        extends: 'apps/web/vite.config.ts',
        test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          // One retry for a real browser on a loaded 2-core machine; a test that fails twice fails the run.
          retry: 1,
        },
      },
    ],
  },
});
