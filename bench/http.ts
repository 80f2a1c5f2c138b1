import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commitEvents } from '../core/commit/commit-events.ts'
import type { WatchEvent } from '../core/incremental/watch-event.ts'
import { systemClock } from '../core/ports/clock.ts'
import { clusterSettings } from '../core/registry/cluster-record.ts'
import { Registry } from '../core/registry/registry.ts'
import { newToken } from '../core/registry/tokens.ts'
import { NodeCache } from '../core/tree/node-cache.ts'
import { nodeSha256 } from '../functions/adapters/hash/node-sha256.ts'
import { createMemoryStore } from '../functions/adapters/storage/memory-store.ts'
import { startServe } from '../test/support/serve-process.ts'
import { ChangeSource } from './changes.ts'
import { copyToDisk } from './copy-to-disk.ts'
import { sendWrite } from './serve-client.ts'
import { seededRandom } from './random.ts'
import { median, percentile, round } from './stats.ts'
import { syntheticCluster } from './synthetic-cluster.ts'
import { removeAtExit } from './removed-at-exit.ts'

export interface Burst {
  requests: number
  seconds: number
  rps: number
  /** 503 answers (HEAD contention) the client retried. */
  retries: number
}

export interface HttpResult {
  size: number
  latencyMs: { p50: number; p95: number; samples: number }
  burstOneCluster: Burst
  burstTenClusters: Burst
}

const BURST = 100

interface Seeded {
  id: string
  token: string
  source: ChangeSource
}

/**
 * Through the real `hapedge serve` process on local disk: a one-Ingress event at `size`
 * Ingresses from request to response (committed), then bursts of single events on one cluster
 * and across ten clusters of 1,000 Ingresses.
 */
export async function measureHttp(size: number, samples: number): Promise<HttpResult> {
  const store = createMemoryStore()
  const registry = new Registry(store, nodeSha256, systemClock)
  const seed = async (id: string, ingresses: number): Promise<Seeded> => {
    const random = seededRandom(ingresses + id.length)
    const objects = syntheticCluster(ingresses, random)
    const { token } = (await registry.register(clusterSettings.parse({ id })))!
    await commitEvents(
      { store, cluster: id, options: {}, context: { nodes: new NodeCache(), hash: nodeSha256 } },
      objects.map((object) => ({ type: 'ADDED' as const, object })),
    )
    return { id, token, source: new ChangeSource(objects, ingresses, random) }
  }
  const big = await seed('big', size)
  const fleet = await Promise.all(Array.from({ length: 10 }, (_, i) => seed(`small-${i}`, 1_000)))

  const root = await mkdtemp(join(tmpdir(), 'hapedge-bench-http-'))
  await copyToDisk(store, '', root)
  process.env.HAPEDGE_ADMIN_TOKEN = newToken()
  const served = await startServe(['--data', root])
  try {
    const post = async (cluster: Seeded, events: WatchEvent[]) => (await sendWrite(served.url, cluster, { events })).retries
    const times: number[] = []
    for (let sample = 0; sample < samples; sample++) {
      const events = big.source.next('ingress-path')
      const started = performance.now()
      await post(big, events)
      times.push(performance.now() - started)
    }
    const burst = async (targets: Seeded[]): Promise<Burst> => {
      const started = performance.now()
      const retries = await Promise.all(
        Array.from({ length: BURST }, (_, i) => post(targets[i % targets.length]!, targets[i % targets.length]!.source.next('ingress-add'))),
      )
      const seconds = (performance.now() - started) / 1000
      return { requests: BURST, seconds: round(seconds, 2), rps: round(BURST / seconds, 1), retries: retries.reduce((a, b) => a + b, 0) }
    }
    return {
      size,
      latencyMs: { p50: round(median(times), 1), p95: round(percentile(times, 95), 1), samples },
      burstOneCluster: await burst([big]),
      burstTenClusters: await burst(fleet),
    }
  } finally {
    await served.stop()
    removeAtExit(root)
  }
}
