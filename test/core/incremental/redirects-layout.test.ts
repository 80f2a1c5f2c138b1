import { describe, expect, it } from 'vitest'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'

/** The layout before redirects and HSTS were rendered: their annotations were read, warned "not yet honoured", and their maps did not exist. */
const BEFORE_REDIRECTS = 5
const NEW_MAPS = [FILES.hstsMap, FILES.appRootMap, FILES.wwwMap, FILES.locationExactMap, FILES.locationPrefixMap]

describe('a snapshot written before redirects and HSTS were rendered', () => {
  it('renders its Ingresses’ redirects into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const moved = (annotations: Record<string, string>) =>
      ingress({ name: 'moved', annotations, rules: [{ host: 'moved.example.com', paths: [{ service: 'app-1' }] }] })
    const redirecting = moved({ 'nginx.ingress.kubernetes.io/permanent-redirect': 'https://example.com/', 'hapedge.io/app-root': '/app' })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), redirecting].map(added))

    // The previous version served the Ingress without its redirect, and its generation had none of the new maps.
    const older = new LiveCluster()
    older.apply([...app(1), moved({})].map(added))
    const objectKey = treeKey(TABLE.object, 'Ingress/default/moved')
    const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
    const snapshot = older.current.snapshot.edit(
      new Map([
        [objectKey, fresh.current.snapshot.get(objectKey)],
        [settingsKey, JSON.stringify({ ...JSON.parse(older.current.snapshot.get(settingsKey)!), layout: BEFORE_REDIRECTS })],
      ]),
    ).tree
    const manifest = older.current.manifest.edit(new Map(NEW_MAPS.map((path) => [path, undefined]))).tree
    expect(NEW_MAPS.filter((path) => manifest.get(path) !== undefined)).toEqual([])

    const next = new IncrementalCluster({ snapshot, manifest }, {}, older.context).apply([]).finish()
    expect(next.snapshot.root).toEqual(fresh.current.snapshot.root)
    expect(next.generation.manifest.root).toEqual(fresh.current.manifest.root)
    expect(fresh.files().get(FILES.locationPrefixMap)).toBe('moved.example.com/ 301|https://example.com/\n')
    expect(fresh.files().get(FILES.wwwMap)).toBe('')
  })
})
