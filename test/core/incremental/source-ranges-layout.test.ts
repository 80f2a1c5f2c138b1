import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { FILES } from '../../../core/render/files.ts'
import { aclFile } from '../../../core/render/render-access.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before source ranges were honoured, when an Ingress with a list was refused (its routes answered 503). */
const BEFORE_SOURCE_RANGES = 4

describe('a snapshot written before source ranges were honoured', () => {
  it('honours the lists of its Ingresses at its next write, byte-equal to a fresh snapshot', () => {
    const listed = (annotations: Record<string, string>) =>
      ingress({ name: 'office', annotations, rules: [{ host: 'office.example.com', paths: [{ service: 'app-1' }] }] })
    const withList = listed({ 'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8' })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), withList].map(added))

    // The previous version refused the Ingress, as it refuses one asking for a web application firewall.
    const refused = new LiveCluster()
    refused.apply([...app(1), listed({ 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' })].map(added))
    const old = olderSnapshot(refused, fresh, { layout: BEFORE_SOURCE_RANGES, objects: ['Ingress/default/office'] })
    expect(new SnapshotReader(old.snapshot).rejections().map((rejection) => rejection.object)).toEqual(['Ingress default/office'])

    const next = writeAfterUpgrade(old, refused, fresh)
    expect(next.plan.maps).toContainEqual({ map: FILES.prefixMap, key: 'office.example.com/', value: 'default_app-1_80:default_office' })
    expect(next.plan.reasons).toContain('Ingress default/office gained source ranges: the frontend has rules for them')
    expect(fresh.files().get(aclFile('default_office', 'allow'))).toBe('10.0.0.0/8\n')
    expect(new SnapshotReader(next.snapshot).rejections()).toEqual([])
  })
})
