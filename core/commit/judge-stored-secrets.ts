import { clusterWideOf } from '../incremental/cluster-wide.ts'
import type { ResyncEvent, SeenVersion } from '../incremental/resource-version.ts'
import { tlsSecretProblems } from '../kube/tls-secret-check.ts'
import type { KubeObject } from '../kube/objects.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { JUDGED_SECRETS_LAYOUT, TABLE } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/** A TLS Secret a snapshot holds, with the version last applied to it. */
export interface StoredSecret {
  key: string
  secret: KubeObject
  seen: SeenVersion | undefined
}

/**
 * A snapshot of a layout before JUDGED_SECRETS_LAYOUT may hold TLS Secrets stored before writes
 * checked certificates against their keys, and a resync no longer sends a Secret that did not
 * change: the first write of such a snapshot judges them. These are the Secrets to judge (none
 * for a snapshot of this layout): a scan of the stored Secrets, once per cluster, over a snapshot
 * the committer loads whole anyway for an older layout. Throws MissingNodes.
 */
export function unjudgedSecrets(snapshot: Tree): StoredSecret[] {
  const stored = clusterWideOf(snapshot)
  if (stored === undefined || (stored.layout ?? 1) >= JUDGED_SECRETS_LAYOUT) return []
  const keyspace = new Keyspace(snapshot)
  const versions = keyspace.table<SeenVersion>(TABLE.resourceVersion)
  return [...keyspace.table<KubeObject>(TABLE.object).entries('Secret/')].map(([key, secret]) => ({ key, secret, seen: versions.get(key) }))
}

/**
 * The Secrets found wrong, as events of their stored form carrying the verdict, sent as a resync
 * sends them: they apply whatever was seen and leave the version they carry, the stored one. Those
 * found good change nothing.
 */
export async function judgedSecretEvents(secrets: readonly StoredSecret[]): Promise<ResyncEvent[]> {
  const problems = await tlsSecretProblems(secrets.map(({ secret }) => secret))
  const events: ResyncEvent[] = []
  for (const { secret, seen } of secrets) {
    const tlsProblem = problems.get(secret)
    if (tlsProblem === undefined) continue
    const metadata = seen && !seen.deleted ? { ...secret.metadata, resourceVersion: seen.version } : secret.metadata
    events.push({ type: 'MODIFIED', object: { ...secret, metadata }, resync: true, tlsProblem })
  }
  return events
}
