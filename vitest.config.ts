import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
import { OWN_MODULE_GRAPH } from './test/support/own-module-graph.ts'
import { SlowProjectsFirst } from './test/support/slow-projects-first.ts'

/**
 * `unit`: pure and in-process suites, seconds in all (`npm run test:fast`, with `unit-isolated`).
 * `unit-isolated`: the unit files that mock a module (OWN_MODULE_GRAPH), each in a fresh module graph.
 * `haproxy`: renders, checks and serves through the real HAProxy binary on loopback.
 * `storage`: the ObjectStore adapters against their contract: memory, local disk, S3 through s3rver and a stand-in S3 on loopback.
 * `e2e`: the real `hapedge serve` process on loopback, driven over HTTP.
 * `kubernetes`: the forwarder, the status writer and the agent's watch, through `@kubernetes/client-node` against an API server double on loopback.
 * `lambda`: the AWS Lambda handler invoked with API Gateway HTTP API and function URL events, on s3rver.
 * `browser`: the fleet page in Debian's headless Chromium (driven by playwright-core) against the real `hapedge serve`.
 * `workers`: inside workerd: the R2 adapter on the local R2 of wrangler.toml's `STORE` binding, and the S3 adapter's error paths.
 */
/**
 * One module graph per worker, not per file: evaluating it again for each small file took longer
 * than the file's tests (unit: 23 s of CPU for 31 files of test/core/model, 6 s shared). Stubbed
 * env and globals are undone before each test; module mocks need OWN_MODULE_GRAPH.
 */
const SHARED_MODULE_GRAPH = { isolate: false, unstubEnvs: true, unstubGlobals: true }

/** fast-check's default case count scaled by HAPEDGE_PROPERTY_RUNS, as each explicit count is (test/support/property-runs.ts). */
const PROPERTY_SETUP = 'test/support/property-setup.ts'

export default defineConfig({
  test: {
    // One file per core: vitest's default (cores - 1) runs one file at a time on two cores, which
    // then sit half idle while a file waits on HAProxy, a spawned CLI or a socket.
    maxWorkers: '100%',
    sequence: { sequencer: SlowProjectsFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'test/core/**/*.test.ts',
            'test/functions/**/*.test.ts',
            'test/processes/**/*.test.ts',
            'test/project/**/*.test.ts',
            'test/infra/**/*.test.ts',
          ],
          exclude: ['test/functions/adapters/storage/**', ...OWN_MODULE_GRAPH],
          setupFiles: [PROPERTY_SETUP],
          ...SHARED_MODULE_GRAPH,
          // Some start the CLI as a process or bundle an entry point: vitest's 5 s is too short on two loaded cores.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      { test: { name: 'unit-isolated', include: OWN_MODULE_GRAPH, setupFiles: [PROPERTY_SETUP], testTimeout: 30_000, hookTimeout: 30_000 } },
      {
        test: {
          name: 'haproxy',
          include: ['test/integration/**/*.test.ts', 'test/support/**/*.test.ts'],
          exclude: OWN_MODULE_GRAPH,
          ...SHARED_MODULE_GRAPH,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // @kubernetes/client-node took seconds to evaluate in each file of its own.
      { test: { name: 'kubernetes', include: ['test/kubernetes/**/*.test.ts'], ...SHARED_MODULE_GRAPH, testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'storage',
          include: ['test/functions/adapters/storage/**/*.test.ts'],
          // The AWS SDK and s3rver, evaluated once per worker.
          ...SHARED_MODULE_GRAPH,
          // s3rver 3.7.1 seals its list continuation tokens with DES, which Node's OpenSSL 3 keeps in the legacy provider.
          execArgv: ['--openssl-legacy-provider'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'lambda',
          include: ['test/lambda/**/*.test.ts'],
          // The handler's S3 store is s3rver, whose list tokens need OpenSSL's legacy provider (see `storage`).
          execArgv: ['--openssl-legacy-provider'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' }, miniflare: { bindings: { ADMIN_TOKEN: 'workers-test-admin-token' } } })],
        test: { name: 'workers', include: ['test/workers/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
})
