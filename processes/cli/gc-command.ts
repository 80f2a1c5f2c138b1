import { join } from 'node:path'
import { collectAllGarbage, type GarbageOutcome } from '../../core/garbage/collect-all-garbage.ts'
import { collectGarbage } from '../../core/garbage/collect-garbage.ts'
import { clusterKeys, isClusterId } from '../../core/keys/cluster-keys.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import { sealedStore, sealLeftoverPlaintext } from '../../functions/platforms/composition/sealed-store.ts'
import { nodeDeploymentSecrets } from '../../functions/platforms/node-server/deployment-secret.ts'
import { nodeSha256 } from '../../functions/adapters/hash/node-sha256.ts'
import { removeLeftovers } from '../../functions/adapters/storage/disk-leftovers.ts'
import { createDiskStore } from '../../functions/adapters/storage/disk-store.ts'
import { defineCommand } from './command.ts'
import { parseDuration } from './duration.ts'
import { requireDirectory } from './existing-directory.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { UsageError } from './usage-error.ts'

const context = () => ({ nodes: new NodeCache(64 * 1024 * 1024), hash: nodeSha256 })

const gcFlags = {
  data: { value: 'DIR', default: '.hapedge', description: 'the data directory of hapedge serve' },
  cluster: { value: 'ID', repeatable: true, defaultNote: 'every cluster in DIR', description: 'a cluster to collect' },
  keep: { value: 'N', default: '50', description: 'keep what the newest N generations reference' },
  grace: { value: 'DURATION', default: '15m', description: 'keep unreferenced objects younger than this: a write in flight may need them' },
} as const satisfies FlagTable

/** `hapedge gc [--data DIR] [--cluster ID…]`: deletes what no retained generation references, in the named clusters or all. */
export const gcCommand = defineCommand({
  flags: gcFlags,
  example: 'hapedge gc --data .hapedge --cluster prod-eu --keep 20',
  environment: { HAPEDGE_SECRET: 'the deployment secret hapedge serve seals with, when not kept in DIR' },
  run: collect,
})

async function collect(values: FlagValues<typeof gcFlags>): Promise<number> {
  for (const id of values.cluster) if (!isClusterId(id)) throw new UsageError(`--cluster ${JSON.stringify(id)}: a DNS label (lowercase letters, digits, '-')`)
  const keep = Number(values.keep)
  if (!Number.isInteger(keep) || keep < 1) throw new UsageError(`--keep ${values.keep}: a whole number of generations, at least 1`)
  const options = { keep, graceMs: parseDuration('grace', values.grace) }
  await requireDirectory('--data', values.data, `no data directory at ${values.data} (give the --data that hapedge serve uses)`)
  if (values.cluster.length === 0) console.log(`no --cluster named: collecting every cluster in ${values.data}`)

  // Marking reads sealed nodes: the secret `hapedge serve` used (HAPEDGE_SECRET, or the one in the data directory).
  const sealing = await nodeDeploymentSecrets(values.data, { create: false })
  const raw = createDiskStore({ root: values.data })
  const store = sealedStore(raw, sealing?.secrets, nodeSha256)
  const outcomes: GarbageOutcome[] = values.cluster.length
    ? await Promise.all(values.cluster.map(async (cluster) => ({ cluster, report: await collectGarbage(store, cluster, context(), options) })))
    : await collectAllGarbage(store, context, options)
  if (outcomes.length === 0) console.log(`no cluster has a committed generation in ${values.data}`)
  for (const outcome of outcomes) console[('error' in outcome ? 'error' : 'log')](describe(outcome, values.grace))
  const sealed = await sealLeftoverPlaintext(raw, store)
  for (const { cluster, ...outcome } of sealed) {
    const report = 'report' in outcome ? outcome.report : undefined
    if (report?.sealed) console.log(`${cluster}: sealed ${report.sealed} objects stored in the clear before it had a data key${report.complete ? '' : ' — more remain: run again'}`)
  }
  // What crashed writes left on disk: never keys, so nothing above deletes them.
  const roots = values.cluster.length ? values.cluster.map((cluster) => join(values.data, clusterKeys(cluster).root)) : [values.data]
  const leftovers = (await Promise.all(roots.map((root) => removeLeftovers(root, new Date(Date.now() - options.graceMs))))).flat()
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
