/**
 * The test files that replace a module with `vi.mock`: the mock must be in place before the modules
 * under test are first evaluated, so each needs a module graph of its own. The `unit` and `haproxy`
 * projects share one graph per worker (vitest.config.ts); these run in `unit-isolated`.
 */
export const OWN_MODULE_GRAPH = [
  'test/core/incremental/unloaded-walks.test.ts',
  'test/core/ingest/one-build-per-write.test.ts',
  'test/processes/cli/main.test.ts',
]
