import { describe, expect, it } from 'vitest'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { rederivesAll } from '../../../core/incremental/cluster-wide.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import type { Tree } from '../../../core/tree/tree.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress, ingressClass } from '../../support/objects.ts'

/** The snapshot as a version that kept no index of Ingresses by class wrote it: without that index, and without a layout in its settings. */
function beforeTheClassIndex(snapshot: Tree): Tree {
  const edits = new Map<string, string | undefined>()
  for (const entry of snapshot.prefix(`${TABLE.classIngresses}${SEPARATOR}`)) edits.set(entry.key, undefined)
  const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
  const { layout: _, ...settings } = JSON.parse(snapshot.get(settingsKey)!) as Record<string, unknown>
  edits.set(settingsKey, JSON.stringify(settings))
  return snapshot.edit(edits).tree
}

describe('a snapshot written before the index of Ingresses by class', () => {
  it('counts no ignored Ingresses until its next write, which builds the index as a fresh snapshot of the same objects holds it', () => {
    const theirs = ['nginx', 'traefik', 'hapedge\u0001b'].map((className, n) =>
      ingress({ name: `theirs-${n}`, className, rules: [{ host: `theirs-${n}.example.com`, paths: [{ service: 'app-1' }] }] }),
    )
    const unclassed = [ingress({ name: 'unclassed', className: null, rules: [{ host: 'unclassed.example.com', paths: [{ service: 'app-1' }] }] })]
    const fresh = new LiveCluster()
    fresh.apply([...app(1), ...theirs, ...unclassed, ingressClass('hapedge', false)].map(added))
    const ignored = { otherClass: theirs.length, noDefaultClass: unclassed.length }
    expect(new SnapshotReader(fresh.current.snapshot).ignored()).toEqual(ignored)

    const old = { snapshot: beforeTheClassIndex(fresh.current.snapshot), manifest: fresh.current.manifest }
    expect(old.snapshot.root).not.toEqual(fresh.current.snapshot.root)
    expect(new SnapshotReader(old.snapshot).ignored()).toBeNull()
    // The committer loads such a snapshot whole first: the index is built from every Ingress.
    expect(rederivesAll(old.snapshot, {})).toBe(true)
    expect(rederivesAll(fresh.current.snapshot, {})).toBe(false)

    const next = new IncrementalCluster(old, {}, fresh.context).apply([]).finish()
    expect(next.snapshot.root).toEqual(fresh.current.snapshot.root)
    expect(next.files.size).toBe(0)
    expect(new SnapshotReader(next.snapshot).ignored()).toEqual(ignored)
  })
})
