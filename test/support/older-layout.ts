import { expect } from 'vitest'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { type Applied, type ClusterTrees, IncrementalCluster } from '../../core/incremental/incremental-cluster.ts'
import type { LiveCluster } from '../../core/incremental/live-cluster.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../../core/snapshot/tables.ts'

export interface OlderLayout {
  /** The SNAPSHOT_LAYOUT the older hapedge recorded. */
  layout: number
  /** The objects (`Ingress/default/name`) the older version kept in the object table: stored as `fresh` stores them, since the table keeps what was received. */
  objects: readonly string[]
  /** Files the older layout's generation did not have. */
  missingFiles?: readonly string[]
}

/**
 * What an older hapedge left behind: `older`'s generation (its derived tables and files, as that
 * version rendered them), with the objects stored as received, the older layout recorded, and the
 * files it did not have absent.
 */
export function olderSnapshot(older: LiveCluster, fresh: LiveCluster, { layout, objects, missingFiles = [] }: OlderLayout): ClusterTrees {
  const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
  const edits = new Map<string, string | undefined>(
    objects.map((object) => [treeKey(TABLE.object, object), fresh.current.snapshot.get(treeKey(TABLE.object, object))]),
  )
  edits.set(settingsKey, JSON.stringify({ ...JSON.parse(older.current.snapshot.get(settingsKey)!), layout }))
  const manifest = missingFiles.length === 0 ? older.current.manifest : older.current.manifest.edit(new Map(missingFiles.map((path) => [path, undefined]))).tree
  expect(missingFiles.filter((path) => manifest.get(path) !== undefined)).toEqual([])
  return { snapshot: older.current.snapshot.edit(edits).tree, manifest }
}

/** The first write after the upgrade onto what `older` left (under its options): it must give what a cluster always run by this version (`fresh`) has, byte for byte. */
export function writeAfterUpgrade(old: ClusterTrees, older: LiveCluster, fresh: LiveCluster, events: WatchEvent[] = []): Applied {
  const next = new IncrementalCluster(old, older.options, older.context).apply(events).finish()
  expect(next.snapshot.root).toEqual(fresh.current.snapshot.root)
  expect(next.generation.manifest.root).toEqual(fresh.current.manifest.root)
  return next
}
