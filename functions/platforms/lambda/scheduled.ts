import type { GarbageOutcome } from '../../../core/garbage/collect-all-garbage.ts'
import { nodeGzip } from '../../adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../../adapters/hash/node-sha256.ts'
import { scheduledGarbageJob } from '../composition/garbage-job.ts'
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
  return scheduledGarbageJob(storeOf(config), environment, nodeSha256, config.cache.perCluster, nodeGzip)
}
