import { changedFiles } from '../reading/changed-files.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import { UnknownGeneration } from '../reading/errors.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import { headRecord } from '../commit/head-record.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { readHead } from '../reading/read-head.ts'
import { diffTrees } from '../reading/tree-diff.ts'
import type { HostConfig } from '../model/derive-host.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import { SEPARATOR } from '../snapshot/separator.ts'
import { TABLE } from '../snapshot/tables.ts'
import type { TreeContext } from '../tree/tree.ts'

export type Change = 'added' | 'removed' | 'changed'

export interface FileDiff {
  path: string
  change: Change
  /** Bytes before and after (null where the file does not exist). */
  bytes: { before: number | null; after: number | null }
}

/** A route (host, match and path) whose backend was added, removed or changed; `''` is the host of rules that name none. */
export interface RouteDiff {
  host: string
  match: string
  path: string
  change: Change
  backend: { before: string | null; after: string | null }
}

/** A host whose certificate or HTTPS redirect changed. */
export interface HostDiff {
  host: string
  tls: { before: string | null; after: string | null }
  redirectToHttps: { before: boolean | null; after: boolean | null }
}

export interface GenerationDiff {
  from: number
  to: number
  files: FileDiff[]
  routes: RouteDiff[]
  hosts: HostDiff[]
}

/**
 * What differs between two retained generations of a cluster: files from their manifest trees,
 * routes and hosts from their snapshots' host tables. Both are tree diffs that skip what the two
 * generations share, so the answer costs the size of the difference, not of the cluster.
 */
export async function generationDiff(store: ObjectStore, cluster: string, context: TreeContext, from: number, to: number): Promise<GenerationDiff> {
  const keys = clusterKeys(cluster)
  const loader = new NodeLoader(store, keys, context)
  const current = await readHead(store, keys)
  const record = (n: number) => (n === current?.head.generation ? headRecord(store, keys, current.head, loader, context) : readGenerationRecord(store, keys, n))
  const [before, after] = await Promise.all([from, to].map(record))
  if (!before) throw new UnknownGeneration(cluster, from)
  if (!after) throw new UnknownGeneration(cluster, to)
  const hostTable = `${TABLE.host}${SEPARATOR}`
  const [fileChanges, hostChanges] = await Promise.all([
    changedFiles(before.manifest, after.manifest, loader, context),
    diffTrees(SNAPSHOT_SHAPE, before.snapshot, after.snapshot, loader, context, hostTable, `${hostTable}\uffff`),
  ])
  const files = fileChanges.map(
    ({ path, before, after }): FileDiff => ({ path, change: changeOf(before, after), bytes: { before: before?.weight ?? null, after: after?.weight ?? null } }),
  )
  const routes: RouteDiff[] = []
  const hosts: HostDiff[] = []
  for (const { key, before, after } of hostChanges) {
    const was = before === undefined ? undefined : (JSON.parse(before) as HostConfig)
    const is = after === undefined ? undefined : (JSON.parse(after) as HostConfig)
    const host = key.slice(hostTable.length)
    routes.push(...routeChanges(host, was, is))
    const tls = { before: was?.tlsSecret ?? null, after: is?.tlsSecret ?? null }
    const redirectToHttps = { before: was?.redirectToHttps ?? null, after: is?.redirectToHttps ?? null }
    if (tls.before !== tls.after || redirectToHttps.before !== redirectToHttps.after) hosts.push({ host, tls, redirectToHttps })
  }
  return { from, to, files, routes, hosts }
}

function routeChanges(host: string, before: HostConfig | undefined, after: HostConfig | undefined): RouteDiff[] {
  const byMatch = (config: HostConfig | undefined) => new Map((config?.routes ?? []).map((route) => [`${route.match} ${route.path}`, route]))
  const old = byMatch(before)
  const now = byMatch(after)
  const changes: RouteDiff[] = []
  for (const key of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const was = old.get(key)
    const is = now.get(key)
    if (was?.backendName === is?.backendName) continue
    const { match, path } = (is ?? was)!
    changes.push({ host, match, path, change: changeOf(was, is), backend: { before: was?.backendName ?? null, after: is?.backendName ?? null } })
  }
  return changes
}

function changeOf(before: unknown, after: unknown): Change {
  return before === undefined ? 'added' : after === undefined ? 'removed' : 'changed'
}
