import { systemClock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { purgeRemovedClusters } from '../registry/purge-removed-clusters.ts'
import type { TreeContext } from '../tree/tree.ts'
import { collectGarbage, type GarbageOptions, type GarbageReport } from './collect-garbage.ts'
import { listClusters } from './list-clusters.ts'

/** One cluster's part of a run: what was collected, that it was purged (removed, grace passed), or why it failed. */
export type GarbageOutcome = { cluster: string } & ({ report: GarbageReport | undefined } | { purged: number } | { error: string })

/**
 * The scheduled job: first deletes the data of clusters removed longer ago than their grace
 * period, then collects every remaining cluster's garbage in turn; one cluster's failure is
 * reported and does not stop the others.
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
      outcomes.push({ cluster, report: await collectGarbage(store, cluster, context(), options) })
    } catch (error) {
      outcomes.push({ cluster, error: (error as Error).message })
    }
  }
  return outcomes
}
