import { collectGarbage } from '../../core/commit/collect-garbage.ts'
import { isClusterId } from '../../core/commit/cluster-keys.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import { nodeSha256 } from '../node/sha256.ts'
import { createDiskStore } from '../storage/disk-store.ts'
import { parseDuration } from './duration.ts'
import { parseOptions, UsageError } from './usage-error.ts'

/** `hapedge gc --data DIR --cluster ID…`: deletes what no retained generation references. */
export async function gcCommand(args: string[]): Promise<number> {
  const values = parseOptions(args, {
    data: { type: 'string', default: '.hapedge' },
    cluster: { type: 'string', multiple: true },
    keep: { type: 'string', default: '50' },
    grace: { type: 'string', default: '15m' },
  })
  if (!values.cluster?.length) throw new UsageError('--cluster ID is required (repeatable)')
  for (const id of values.cluster) if (!isClusterId(id)) throw new UsageError(`--cluster ${JSON.stringify(id)}: a DNS label (lowercase letters, digits, '-')`)
  const keep = Number(values.keep)
  if (!Number.isInteger(keep) || keep < 1) throw new UsageError(`--keep ${values.keep}: a whole number of generations, at least 1`)
  const graceMs = parseDuration('grace', values.grace)

  const store = createDiskStore({ root: values.data })
  for (const cluster of values.cluster) {
    const report = await collectGarbage(store, cluster, { nodes: new NodeCache(64 * 1024 * 1024), hash: nodeSha256 }, { keep, graceMs })
    if (!report) {
      console.log(`${cluster}: no generation committed, nothing to collect`)
      continue
    }
    console.log(
      `${cluster}: generation ${report.generation}, kept ${report.retained.length} generations (${report.live} objects); ` +
        `deleted ${report.deleted.length}, ${report.young} unreferenced but younger than ${values.grace}` +
        (report.complete ? '' : ' — stopped early: a writer went ahead when the hold lapsed; run again'),
    )
  }
  return 0
}
