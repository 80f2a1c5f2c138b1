import { systemClock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { purgeRemovedClusters } from '../registry/purge-removed-clusters.ts'
import { parseRecord, REGISTRY_PREFIX } from '../registry/registry.ts'
import type { TreeContext } from '../tree/tree.ts'
import { collectGarbage, type GarbageOptions, type GarbageReport } from './collect-garbage.ts'
import { listClusters } from '../reading/list-clusters.ts'

/** One cluster's part of a run: what was collected, that it was purged (removed, grace passed), or why it failed. */
export type GarbageOutcome = { cluster: string } & ({ report: GarbageReport | undefined } | { purged: number } | { error: string })

/**
 * The scheduled job: first deletes the data of clusters removed longer ago than their grace
 * period, then collects every remaining cluster's garbage in turn, keeping as many generations
 * as its record's `retention` says (else `options.keep`); one cluster's failure is reported and
 * does not stop the others.
 */
export async function collectAllGarbage(store: ObjectStore, context: () => TreeContext, options: GarbageOptions = {}): Promise<GarbageOutcome[]> {
  const outcomes: GarbageOutcome[] = []
  try {
    for (const { cluster, deleted } of await purgeRemovedClusters(store, (options.clock ?? systemClock).now())) outcomes.push({ cluster, purged: deleted })
  } catch (error) {
    outcomes.push({ cluster: '(removed clusters)', error: (error as Error).message })
  }
  for (const cluster of await listClusters(store)) {
    try {
      outcomes.push({ cluster, report: await collectGarbage(store, cluster, context(), { ...options, ...(await retentionOf(store, cluster)) }) })
    } catch (error) {
      outcomes.push({ cluster, error: (error as Error).message })
    }
  }
  return outcomes
}

/** The cluster's own retention, from its registry record; nothing when it has no record (data without registration) or sets none. */
async function retentionOf(store: ObjectStore, cluster: string): Promise<{ keep?: number }> {
  const stored = await store.get(REGISTRY_PREFIX + cluster)
  const generations = stored && parseRecord(stored.body).retention?.generations
  return generations === undefined ? {} : { keep: generations }
}
