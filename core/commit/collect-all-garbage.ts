import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import { collectGarbage, type GarbageOptions, type GarbageReport } from './collect-garbage.ts'
import { listClusters } from './list-clusters.ts'

export type GarbageOutcome = { cluster: string } & ({ report: GarbageReport | undefined } | { error: string })

/**
 * The scheduled job: collects every cluster's garbage in turn; one cluster's failure is
 * reported and does not stop the others.
 */
export async function collectAllGarbage(store: ObjectStore, context: () => TreeContext, options: GarbageOptions = {}): Promise<GarbageOutcome[]> {
  const outcomes: GarbageOutcome[] = []
  for (const cluster of await listClusters(store)) {
    try {
      outcomes.push({ cluster, report: await collectGarbage(store, cluster, context(), options) })
    } catch (error) {
      outcomes.push({ cluster, error: (error as Error).message })
    }
  }
  return outcomes
}
