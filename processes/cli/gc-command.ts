import { join } from 'node:path'
import type { GarbageOutcome } from '../../core/garbage/collect-all-garbage.ts'
import { clusterKeys } from '../../core/keys/cluster-keys.ts'
import { nodeGzip } from '../../functions/adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../../functions/adapters/hash/node-sha256.ts'
import { removeLeftovers } from '../../functions/adapters/storage/disk-leftovers.ts'
import { createDiskStore } from '../../functions/adapters/storage/disk-store.ts'
import { generationsToKeep, KEEP_RULE, runGarbageJob } from '../../functions/platforms/composition/garbage-job.ts'
import { s3Url } from '../../functions/platforms/composition/s3-location.ts'
import { nodeDeploymentSecrets } from '../../functions/platforms/node-server/deployment-secret.ts'
import { diskSecrets } from '../../functions/platforms/node-server/secret-keepers.ts'
import { defineCommand } from './command.ts'
import { parseDuration } from './duration.ts'
import { requireDirectory } from './existing-directory.ts'
import { clusterFlag } from './function-flags.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { openS3Storage, s3LocationOf, STORE_ENVIRONMENT, storeFlags } from './store-flags.ts'
import { UsageError } from './usage-error.ts'

const DEFAULT_DATA = '.hapedge'

const gcFlags = {
  data: { value: 'DIR', defaultNote: `${DEFAULT_DATA}, unless --store`, description: 'the data directory of hapedge serve' },
  ...storeFlags,
  cluster: { value: 'ID', repeatable: true, defaultNote: 'every cluster in DIR or the bucket', description: 'a cluster to collect' },
  keep: { value: 'N', default: '50', description: 'keep what the newest N generations reference' },
  grace: { value: 'DURATION', default: '15m', description: 'keep unreferenced objects younger than this: a write in flight may need them' },
} as const satisfies FlagTable

/** `hapedge gc [--data DIR | --store s3://BUCKET[/PREFIX]] [--cluster ID…]`: deletes what no retained generation references, in the named clusters or all. */
export const gcCommand = defineCommand({
  flags: gcFlags,
  example: 'hapedge gc --data .hapedge --cluster prod-eu --keep 20',
  environment: { HAPEDGE_SECRET: 'the deployment secret hapedge serve seals with, when not kept in DIR or in the store', ...STORE_ENVIRONMENT },
  run: collect,
})

async function collect(values: FlagValues<typeof gcFlags>): Promise<number> {
  for (const id of values.cluster) clusterFlag(id)
  const keep = generationsToKeep(values.keep)
  if (keep === undefined) throw new UsageError(`--keep ${values.keep}: ${KEEP_RULE}`)
  const settings = { keep, graceMs: parseDuration('grace', values.grace) }
  const location = s3LocationOf(values, values.store && values.data !== undefined ? ['--data and --store: give one (the data directory, or the bucket)'] : [])
  const data = values.data ?? DEFAULT_DATA
  if (!location) await requireDirectory('--data', data, `no data directory at ${data} (give the --data that hapedge serve uses)`)
  const { store, secrets } = location ? await openS3Storage(location) : { store: createDiskStore({ root: data }), secrets: diskSecrets(data) }
  const where = location ? s3Url(location) : data
  if (values.cluster.length === 0) console.log(`no --cluster named: collecting every cluster in ${where}`)

  // Marking reads sealed nodes: the secret `hapedge serve` used (HAPEDGE_SECRET, or the one kept in the data directory or the bucket).
  const sealing = await nodeDeploymentSecrets(secrets, { create: false })
  const {
    collected: outcomes,
    sealed,
    sessions,
  } = await runGarbageJob({
    store,
    secrets: sealing?.secrets,
    hash: nodeSha256,
    gzip: nodeGzip,
    cacheChars: 64 * 1024 * 1024,
    settings,
    ...(values.cluster.length ? { clusters: values.cluster } : {}),
  })
  if (outcomes.length === 0) console.log(`no cluster has a committed generation in ${where}`)
  for (const outcome of outcomes) console['error' in outcome ? 'error' : 'log'](describe(outcome, values.grace))
  for (const { cluster, ...outcome } of sealed) {
    const report = 'report' in outcome ? outcome.report : undefined
    if (report?.sealed)
      console.log(
        `${cluster}: sealed ${report.sealed} objects stored in the clear before it had a data key${report.complete ? '' : ' — more remain: run again'}`,
      )
  }
  for (const { cluster, sessions: count, objects } of sessions) console.log(`${cluster}: deleted ${count} expired resync session(s), ${objects} objects`)
  // What crashed writes left on disk: never keys, so nothing above deletes them (a bucket has no temp files).
  const roots = location ? [] : values.cluster.length ? values.cluster.map((cluster) => join(data, clusterKeys(cluster).root)) : [data]
  const leftovers = (await Promise.all(roots.map((root) => removeLeftovers(root, new Date(Date.now() - settings.graceMs))))).flat()
  if (leftovers.length > 0) console.log(`removed ${leftovers.length} temp files that crashed writes left, older than ${values.grace}`)
  return [...outcomes, ...sealed].some((outcome) => 'error' in outcome) ? 1 : 0
}

function describe(outcome: GarbageOutcome, grace: string): string {
  if ('error' in outcome) return `${outcome.cluster}: ${outcome.error}`
  if ('purged' in outcome) return `${outcome.cluster}: removed and past its grace period, purged (${outcome.purged} objects and its record)`
  const { report } = outcome
  if (!report) return `${outcome.cluster}: no generation committed, nothing to collect`
  return (
    `${outcome.cluster}: generation ${report.generation}, kept ${report.retained.length} generations (${report.live} objects); ` +
    `deleted ${report.deleted.length}, ${report.young} unreferenced but younger than ${grace}` +
    (report.complete ? '' : ' — stopped early: a writer went ahead when the hold lapsed; run again')
  )
}
