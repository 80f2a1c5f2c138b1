import { describe, expect, it } from 'vitest'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { rederivesAll } from '../../../core/incremental/cluster-wide.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { CLUSTER_WIDE, SNAPSHOT_LAYOUT, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { REFUSED_BACKEND } from '../../../core/model/backend-ref.ts'
import { FILES } from '../../../core/render/files.ts'
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

describe('a snapshot written before annotations were read', () => {
  it('gets the warnings, the refusal and the refused routes of the Ingresses it holds at its next write, as a fresh snapshot of the same objects holds them', () => {
    const guarded = ingress({
      name: 'guarded',
      annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
      rules: [{ host: 'guarded.example.com', paths: [{ service: 'app-1' }] }],
    })
    const annotated = ingress({
      name: 'annotated',
      annotations: { 'nginx.ingress.kubernetes.io/proxy-buffering': 'on' },
      rules: [{ host: 'annotated.example.com', paths: [{ service: 'app-1' }] }],
    })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), guarded, annotated].map(added))

    // The previous version stored the Ingresses whole but derived them as if they had no annotations: guarded served open.
    const unread = new LiveCluster()
    const bare = (object: typeof guarded) => ({ ...object, metadata: { ...object.metadata, annotations: undefined } })
    unread.apply([...app(1), bare(guarded), bare(annotated)].map(added))
    const edits = new Map<string, string | undefined>()
    for (const name of ['guarded', 'annotated']) {
      const key = treeKey(TABLE.object, `Ingress/default/${name}`)
      edits.set(key, fresh.current.snapshot.get(key))
    }
    const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
    edits.set(settingsKey, JSON.stringify({ ...JSON.parse(unread.current.snapshot.get(settingsKey)!), layout: SNAPSHOT_LAYOUT - 1 }))
    const old = { snapshot: unread.current.snapshot.edit(edits).tree, manifest: unread.current.manifest }
    expect(new SnapshotReader(old.snapshot).warnings()).toEqual([])
    expect(unread.files().get(FILES.prefixMap)).toContain('guarded.example.com/ default_app-1_80\n')
    expect(rederivesAll(old.snapshot, {})).toBe(true)

    const next = new IncrementalCluster(old, {}, unread.context).apply([]).finish()
    expect(next.snapshot.root).toEqual(fresh.current.snapshot.root)
    expect(next.generation.manifest.root).toEqual(fresh.current.manifest.root)
    expect(next.plan.maps).toContainEqual({ map: FILES.prefixMap, key: 'guarded.example.com/', value: REFUSED_BACKEND })
    const view = new SnapshotReader(next.snapshot)
    expect(view.warnings().map((warning) => warning.annotation)).toEqual(['nginx.ingress.kubernetes.io/proxy-buffering'])
    expect(view.rejections().map((rejection) => rejection.object)).toEqual(['Ingress default/guarded'])
  })
})
