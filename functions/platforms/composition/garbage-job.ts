import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'
import { collectAllGarbage, type GarbageOutcome } from '../../../core/garbage/collect-all-garbage.ts'
import { collectGarbage, type GarbageOptions } from '../../../core/garbage/collect-garbage.ts'
import type { HashText } from '../../../core/hash.ts'
import { systemClock, type Clock } from '../../../core/ports/clock.ts'
import { collectExpiredSessions, type ExpiredSessions } from '../../../core/resync/expired-sessions.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import type { SealPlaintextOutcome } from '../../../core/sealing/seal-plaintext.ts'
import type { Gzip } from '../../../core/tree/node-body.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { deploymentSecrets } from './deployment-secrets.ts'
import { sealedStore, sealLeftoverPlaintext } from './sealed-store.ts'

/** What garbage collection keeps: generations, and unreferenced objects younger than the grace period. */
export type GarbageSettings = Pick<GarbageOptions, 'keep' | 'graceMs'>

export const KEEP_RULE = 'a whole number of generations, at least 1'

/** The number of generations `text` asks to keep; undefined when it is not one (`KEEP_RULE`). */
export function generationsToKeep(text: string): number | undefined {
  const keep = Number(text)
  return text.trim() !== '' && Number.isInteger(keep) && keep >= 1 ? keep : undefined
}

/**
 * The settings of scheduled garbage collection on a platform (the Worker's cron, the Lambda's
 * schedule): `HAPEDGE_GC_KEEP` generations and `HAPEDGE_GC_GRACE_SECONDS`; one unset leaves the
 * collector's default (50 generations, 900 seconds). A value that is not one is an error that names
 * the variable, before anything is collected.
 */
export function garbageSettings(environment: Record<string, unknown>): GarbageSettings {
  const text = (name: string) => {
    const value = environment[name]
    return typeof value === 'string' && value.trim() !== '' ? value : undefined
  }
  const keepText = text('HAPEDGE_GC_KEEP')
  const graceText = text('HAPEDGE_GC_GRACE_SECONDS')
  const keep = keepText === undefined ? undefined : generationsToKeep(keepText)
  const grace = graceText === undefined ? undefined : Number(graceText)
  const problems = [
    ...(keepText !== undefined && keep === undefined ? [`HAPEDGE_GC_KEEP ${JSON.stringify(keepText)}: ${KEEP_RULE}`] : []),
    ...(grace !== undefined && !(Number.isFinite(grace) && grace >= 0)
      ? [`HAPEDGE_GC_GRACE_SECONDS ${JSON.stringify(graceText)}: a number of seconds, 0 or more`]
      : []),
  ]
  if (problems.length > 0) throw new Error(`hapedge garbage collection: ${problems.join('; ')}`)
  return { ...(keep !== undefined ? { keep } : {}), ...(grace !== undefined ? { graceMs: grace * 1000 } : {}) }
}

export interface GarbageJob {
  /** The store as the platform has it; the job reads through the sealing store over it. */
  store: ObjectStore
  secrets: DeploymentSecrets | undefined
  hash: HashText
  /** How stored nodes are gunzipped while marking (default: the Web standard streams). */
  gzip?: Gzip
  /** Characters of node text cached per cluster while marking. */
  cacheChars: number
  settings: GarbageSettings
  /** Only these clusters; every cluster (and the purge of removed ones) when absent. */
  clusters?: readonly string[]
  /** What "now" is for expired resync sessions (tests pass theirs). */
  clock?: Clock
}

/**
 * Collects garbage through the sealing store (marking reads the clusters' sealed nodes), then
 * seals what clusters stored in the clear before they had a data key. One cluster's failure is
 * its outcome, and does not stop the others.
 */
export async function runGarbageJob(job: GarbageJob): Promise<{ collected: GarbageOutcome[]; sealed: SealPlaintextOutcome[]; sessions: ExpiredSessions[] }> {
  const store = sealedStore(job.store, job.secrets, job.hash)
  const context = () => ({ nodes: new NodeCache(job.cacheChars), hash: job.hash, ...(job.gzip ? { gzip: job.gzip } : {}) })
  const collected = job.clusters
    ? await Promise.all(job.clusters.map(async (cluster) => ({ cluster, report: await collectGarbage(store, cluster, context(), job.settings) })))
    : await collectAllGarbage(store, context, job.settings)
  // Resync sessions past their time changed nothing: their pages go (records are not sealed, so the plain store does).
  const now = (job.clock ?? systemClock).now()
  const sessions = await collectExpiredSessions(job.store, now, job.settings.graceMs ?? 15 * 60_000, job.clusters)
  return { collected, sealed: await sealLeftoverPlaintext(job.store, store), sessions }
}

/** The scheduled job of the Worker and the Lambda: settings and secrets from the platform's environment, each failure logged. */
export async function scheduledGarbageJob(
  store: ObjectStore,
  environment: Record<string, unknown>,
  hash: HashText,
  cacheChars: number,
  gzip?: Gzip,
): Promise<GarbageOutcome[]> {
  const settings = garbageSettings(environment)
  const { collected } = await runGarbageJob({ store, secrets: deploymentSecrets(environment), hash, ...(gzip ? { gzip } : {}), cacheChars, settings })
  for (const outcome of collected) if ('error' in outcome) console.error(`garbage collection of ${outcome.cluster} failed: ${outcome.error}`)
  return collected
}
