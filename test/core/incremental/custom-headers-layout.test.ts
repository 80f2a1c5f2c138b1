import { describe, expect, it } from 'vitest'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app, modified } from '../../support/contracts/cluster-apps.ts'
import { configMap, ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before custom-headers was honoured: the annotation was warned "not yet honoured", and no ConfigMap but the settings' was kept. */
const BEFORE_CUSTOM_HEADERS = 17

describe('a snapshot written before custom-headers was honoured', () => {
  it('indexes its Ingresses by the ConfigMap they name at its next write, warns that the ConfigMap is not known until it arrives, then sets its headers and follows its changes', () => {
    const site = ingress({
      name: 'site',
      annotations: { 'nginx.ingress.kubernetes.io/custom-headers': 'security-headers' },
      rules: [{ host: 'site.example.com', paths: [{ service: 'app-1' }] }],
    })
    const headers = (value: string) => configMap({ 'X-Frame-Options': value }, 'security-headers', 'default')
    // The older version dropped the ConfigMap: a fresh cluster without it is what the upgrade must give.
    const fresh = new LiveCluster()
    fresh.apply([...app(1), site].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), ingress({ name: 'site', rules: [{ host: 'site.example.com', paths: [{ service: 'app-1' }] }] })].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_CUSTOM_HEADERS, objects: ['Ingress/default/site'] })
    const upgraded = writeAfterUpgrade(old, older, fresh)
    expect(new SnapshotReader(upgraded.snapshot).warnings()).toEqual([
      { object: 'Ingress default/site', annotation: 'nginx.ingress.kubernetes.io/custom-headers', reason: expect.stringContaining('before layout 18') },
    ])

    // The next full resync (or the forwarder, as the Ingress names it) sends the ConfigMap; its changes then re-derive the Ingress through the index the upgrade built.
    let trees = { snapshot: upgraded.snapshot, manifest: upgraded.generation.manifest }
    for (const event of [added(headers('DENY')), modified(headers('SAMEORIGIN'))]) {
      const next = new IncrementalCluster(trees, {}, older.context).apply([event]).finish()
      fresh.apply([event])
      expect(next.snapshot.root).toEqual(fresh.current.snapshot.root)
      expect(next.generation.manifest.root).toEqual(fresh.current.manifest.root)
      trees = { snapshot: next.snapshot, manifest: next.generation.manifest }
    }
    expect(fresh.files().get(FILES.headerValuesMap)).toBe('site.example.com/|P|res-set|x-frame-options SAMEORIGIN\n')
  })
})
