import { startServe } from '../test/support/serve-process.ts'
import { makeTempDir } from '../test/support/temp-dir.ts'
import { endpointSlice, service } from '../test/support/objects.ts'
import { CONVERGENCE_BACKGROUNDS } from './convergence.ts'
import { seededRandom } from './random.ts'
import { removeAtExit } from './removed-at-exit.ts'
import { registerCluster, sendWrite, type ClusterClient } from './serve-client.ts'
import { ShopIngress } from './shop-ingress.ts'
import { syntheticCluster } from './synthetic-cluster.ts'
import { latency, type Latency } from './stats.ts'
import { turnOrder, turnRatio } from './turns.ts'

export interface CommitTurns {
  /** Per background size, smallest first: its path changes' commits (the write's round trip). */
  sizes: { background: number; committed: Latency }[]
  /** Change by change, the largest size's commit against the smallest's in the same turn, less 1: their median. */
  ratio: number
}

/** Turns left out at the start: the first commits after a load read what its generation's commit did not leave cached. */
const WARM_TURNS = 5

/**
 * Path changes committed by one `hapedge serve` on local disk to two clusters, beside 200 and
 * 20,000 Ingresses, taking turns change by change (which goes first alternates). A convergence
 * run measures each size on a stack of its own, and a shared machine's drift moves a whole run by
 * more than the difference it looks for; here both sizes meet the same minutes, the same heap
 * and the same disk, so what is left of the difference is what a commit does more beside
 * 20,000 Ingresses (its trees' extra levels). The same changes as the convergence rows' (one
 * path more on the `shop.test` Ingress), with no agent and no HAProxy.
 */
export async function measureCommitTurns(changes: number, backgrounds: readonly number[] = CONVERGENCE_BACKGROUNDS): Promise<CommitTurns> {
  const dir = await makeTempDir('hapedge-bench-turns')
  // Not at stop: the next part's server would pay for removing 20,000 Ingresses' files (see removeAtExit).
  removeAtExit(dir)
  const served = await startServe(['--data', dir])
  try {
    const clusters = await Promise.all(
      backgrounds.map(async (background) => {
        const client = await registerCluster(served.url, served.adminToken, `turns-${background}`)
        const shop = new ShopIngress()
        const objects = [
          ...syntheticCluster(background, seededRandom(background)),
          ...['web', 'added'].flatMap((name, i) => [service(name), endpointSlice(name, [`10.0.0.${i + 1}`], [{ port: 80 }])]),
          shop.object(),
        ]
        await sendWrite(served.url, client, { objects })
        return { background, client, shop, committed: [] as number[] }
      }),
    )
    const commit = async (client: ClusterClient, shop: ShopIngress, n: number) => {
      const started = performance.now()
      await sendWrite(served.url, client, { events: [{ type: 'MODIFIED', object: shop.withPath(`/r${n}`) }] })
      return performance.now() - started
    }
    for (let n = 0; n < WARM_TURNS + changes; n++) {
      for (const cluster of turnOrder(n, clusters)) {
        const ms = await commit(cluster.client, cluster.shop, n)
        if (n >= WARM_TURNS) cluster.committed.push(ms)
      }
    }
    const [smallest, largest] = [clusters[0]!, clusters.at(-1)!]
    return {
      sizes: clusters.map(({ background, committed }) => ({ background, committed: latency(committed) })),
      ratio: turnRatio(smallest.committed, largest.committed),
    }
  } finally {
    await served.stop()
  }
}
