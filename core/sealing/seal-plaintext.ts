import { isSealedBody } from '../crypto/sealed-body.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import { listClusters } from '../reading/list-clusters.ts'

export interface SealPlaintextReport {
  examined: number
  sealed: number
  /** False when the budget ran out first: the next run goes on after the last key examined. */
  complete: boolean
}

const progressKey = (cluster: string) => `${clusterKeys(cluster).root}sealed`

/**
 * Seals in place the nodes and blobs a cluster stored in the clear before the deployment had a
 * secret (or the cluster a data key): content is rewritten only when it changes, so without this
 * an unchanged TLS Secret would stay in the clear for good. `raw` is the store under the sealing
 * store `sealed`. Each body is read raw and, when plaintext, put again through `sealed` under
 * the same key (same plaintext, so a concurrent reader opens either version to the same bytes;
 * an object collected meanwhile comes back sealed and unreferenced, for the next collection).
 * At most `budget` objects are read per run; `clusters/<id>/sealed` keeps the progress, and once
 * a pass is complete, later runs cost one read. Undefined when the cluster has no data key
 * (what would be written is still plaintext): nothing is marked, a later run tries again.
 */
export async function sealPlaintext(raw: ObjectStore, sealed: ObjectStore, cluster: string, budget = 10_000): Promise<SealPlaintextReport | undefined> {
  const keys = clusterKeys(cluster)
  const progress = await raw.get(progressKey(cluster))
  const state = progress ? (JSON.parse(new TextDecoder().decode(progress.body)) as { complete: boolean; after?: string }) : { complete: false }
  if (state.complete) return { examined: 0, sealed: 0, complete: true }
  const report: SealPlaintextReport = { examined: 0, sealed: 0, complete: true }
  let last: string | undefined
  for (const space of ['blobs', 'nodes']) {
    for await (const object of raw.list(`${keys.root}${space}/`)) {
      if (state.after !== undefined && object.key <= state.after) continue
      if (report.examined === budget) {
        report.complete = false
        break
      }
      report.examined++
      last = object.key
      const stored = await raw.get(object.key)
      if (!stored || isSealedBody(stored.body)) continue
      await sealed.put(object.key, stored.body)
      if (report.sealed++ === 0 && !isSealedBody((await raw.get(object.key))?.body ?? new Uint8Array())) return undefined
    }
    if (!report.complete) break
  }
  await raw.put(progressKey(cluster), JSON.stringify(report.complete ? { complete: true } : { complete: false, after: last }))
  return report
}

/** One cluster's part of `sealAllPlaintext`: its report, or why it failed. */
export type SealPlaintextOutcome = { cluster: string } & ({ report: SealPlaintextReport | undefined } | { error: string })

/** `sealPlaintext` for every cluster with a committed generation, in turn; one cluster's failure is reported and does not stop the others. */
export async function sealAllPlaintext(raw: ObjectStore, sealed: ObjectStore, budget?: number): Promise<SealPlaintextOutcome[]> {
  const outcomes: SealPlaintextOutcome[] = []
  for (const cluster of await listClusters(raw)) {
    try {
      outcomes.push({ cluster, report: await sealPlaintext(raw, sealed, cluster, budget) })
    } catch (error) {
      outcomes.push({ cluster, error: (error as Error).message })
    }
  }
  return outcomes
}
