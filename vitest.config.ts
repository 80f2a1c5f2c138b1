import { defineConfig } from 'vitest/config'

/**
 * `unit`: pure and in-process suites, seconds in all (`npm run test:fast`).
 * `haproxy`: renders, checks and serves through the real HAProxy binary on loopback.
 * `storage`: the ObjectStore adapters against their one contract.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/core/**/*.test.ts', 'test/functions/**/*.test.ts', 'test/project/**/*.test.ts'],
          exclude: ['test/functions/storage/**'],
        },
      },
      {
        test: {
          name: 'haproxy',
          include: ['test/integration/**/*.test.ts', 'test/support/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'storage', include: ['test/functions/storage/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 } },
    ],
  },
})
