import { commitEvents } from '../core/commit/commit-events.ts'
import { sealingStore } from '../core/sealing/sealing-store.ts'
import type { ObjectStore } from '../core/ports/object-store.ts'
import { NodeCache } from '../core/tree/node-cache.ts'
import { nodeSha256 } from '../functions/adapters/hash/node-sha256.ts'
import { createMemoryStore } from '../functions/adapters/storage/memory-store.ts'
import { CHANGE_KINDS, ChangeSource, type ChangeKind } from './changes.ts'
import { seededRandom } from './random.ts'
import { median, round } from './stats.ts'
import { syntheticCluster } from './synthetic-cluster.ts'

export interface SealingRow {
  size: number
  change: ChangeKind
  plain_cold_ms_p50: number
  sealed_cold_ms_p50: number
  plain_warm_ms_p50: number
  sealed_warm_ms_p50: number
}

export interface SealingResult {
  size: number
  plainBuildMs: number
  sealedBuildMs: number
  rows: SealingRow[]
}

const CLUSTER = 'bench'
const context = (budget = Number.POSITIVE_INFINITY) => ({ nodes: new NodeCache(budget), hash: nodeSha256 })

/** One store's side: the cluster committed once, then the same sequence of changes as the other side. */
async function side(store: ObjectStore, size: number) {
  const objects = syntheticCluster(size, seededRandom(size + 2))
  const started = performance.now()
  await commitEvents(
    { store, cluster: CLUSTER, options: {}, context: context() },
    objects.map((object) => ({ type: 'ADDED' as const, object })),
  )
  const buildMs = performance.now() - started
  const source = new ChangeSource(objects, size, seededRandom(size + 3))
  const warm = context(32 * 1024 * 1024)
  const timed = async (cache: ReturnType<typeof context>, change: ChangeKind) => {
    const at = performance.now()
    await commitEvents({ store, cluster: CLUSTER, options: {}, context: cache }, source.next(change))
    return performance.now() - at
  }
  return { buildMs, cold: (change: ChangeKind) => timed(context(), change), warm: (change: ChangeKind) => timed(warm, change) }
}

/**
 * What sealing cluster content costs per change: the same cluster and changes committed through
 * a plain memory store and through the sealing store over one (AES-GCM per node and blob written,
 * and per node read cold), interleaved so that both sides see the same machine.
 */
export async function measureSealing(size: number, samples: number): Promise<SealingResult> {
  const key = (await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])) as CryptoKey
  const plain = await side(createMemoryStore(), size)
  const sealed = await side(
    sealingStore(createMemoryStore(), async () => key),
    size,
  )
  const rows: SealingRow[] = []
  for (const change of CHANGE_KINDS) {
    const ms = { plainCold: [] as number[], sealedCold: [] as number[], plainWarm: [] as number[], sealedWarm: [] as number[] }
    for (let sample = 0; sample < samples; sample++) {
      ms.plainCold.push(await plain.cold(change))
      ms.sealedCold.push(await sealed.cold(change))
      ms.plainWarm.push(await plain.warm(change))
      ms.sealedWarm.push(await sealed.warm(change))
    }
    const p50 = (values: number[]) => round(median(values), 2)
    rows.push({
      size,
      change,
      plain_cold_ms_p50: p50(ms.plainCold),
      sealed_cold_ms_p50: p50(ms.sealedCold),
      plain_warm_ms_p50: p50(ms.plainWarm),
      sealed_warm_ms_p50: p50(ms.sealedWarm),
    })
  }
  return { size, plainBuildMs: plain.buildMs, sealedBuildMs: sealed.buildMs, rows }
}
