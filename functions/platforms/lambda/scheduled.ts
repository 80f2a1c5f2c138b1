import { collectAllGarbage, type GarbageOutcome } from '../../../core/garbage/collect-all-garbage.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { deploymentSecrets } from '../composition/deployment-secrets.ts'
import { sealedStore, sealLeftoverPlaintext } from '../composition/sealed-store.ts'
import { nodeSha256 } from '../../adapters/hash/node-sha256.ts'
import { storeOf } from './handler.ts'
import { readLambdaConfig } from './lambda-config.ts'

/**
 * The target of an EventBridge schedule: collects every cluster's garbage in the bucket, keeping
 * `HAPEDGE_GC_KEEP` generations (default 50) and whatever is younger than
 * `HAPEDGE_GC_GRACE_SECONDS` (default 900). One cluster's failure is reported, not thrown.
 */
export async function collectGarbageHandler(
  _event?: unknown,
  // Lambda passes its context object second: the environment comes third, so that Lambda's call reads process.env.
  _context?: unknown,
  environment: Record<string, string | undefined> = process.env,
): Promise<GarbageOutcome[]> {
  const config = readLambdaConfig(environment)
  const options = { keep: Number(environment.HAPEDGE_GC_KEEP ?? 50), graceMs: Number(environment.HAPEDGE_GC_GRACE_SECONDS ?? 900) * 1000 }
  // Through the sealing store: marking reads the clusters' sealed nodes.
  const raw = storeOf(config)
  const store = sealedStore(raw, deploymentSecrets(environment), nodeSha256)
  const outcomes = await collectAllGarbage(store, () => ({ nodes: new NodeCache(config.cache.perCluster), hash: nodeSha256 }), options)
  for (const outcome of outcomes) if ('error' in outcome) console.error(`garbage collection of ${outcome.cluster} failed: ${outcome.error}`)
  await sealLeftoverPlaintext(raw, store)
  return outcomes
}
