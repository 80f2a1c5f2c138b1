import { defineConfig } from 'vitest/config'

/**
 * `unit`: pure and in-process suites, seconds in all (`npm run test:fast`).
 * `haproxy`: renders, checks and serves through the real HAProxy binary on loopback.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/core/**/*.test.ts', 'test/functions/**/*.test.ts', 'test/project/**/*.test.ts'] } },
      {
        test: {
          name: 'haproxy',
          include: ['test/integration/**/*.test.ts', 'test/support/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
