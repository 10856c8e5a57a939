import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One test command for the whole repo; each workspace is a project with its own environment.
export default defineConfig({
  test: {
    // Vitest's default, one worker fewer than the cores, ran every file one after another on two. Most files wait
    // more than they compute (PostgreSQL, HTTP, child processes), so as many run at once as there are cores, and
    // never fewer than two; the browser tests run after the rest, two at a time (below).
    maxWorkers: Math.max(2, availableParallelism()),
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
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          // Each file would otherwise load antd and jsdom afresh, a second or more apiece; the tests reset what they
          // change (the session in renderApp, a query client per mount, real timers after each test).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.test.ts'],
          environment: 'node',
          setupFiles: ['support/failures.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // Two files at a time: one alone left the two cores about half idle (each file waits on its product, its
          // Chromium and their polls); two at once took the browser tests from 851 s to 566 s, all passing.
          maxWorkers: 2,
          // After the other projects (group 0): a browser test's waits are sized for a machine not also rendering.
          sequence: { groupOrder: 1 },
          // What a page shows after a click or a navigation may take seconds on a loaded machine (a lazy chunk, a
          // query): expect.poll's own 1 s default failed there on states a user would simply wait a moment for.
          expect: { poll: { timeout: 10_000 } },
          // No retries: a retry hides a flaky test; a test that fails once fails the run.
        },
      },
    ],
  },
});
