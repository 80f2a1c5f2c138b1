import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'

/** The layout before backend settings were rendered: their annotations were read and warned "not yet honoured", and their routes went to the Service's own backend. */
const BEFORE_UPSTREAMS = 15

describe('a snapshot written before backend settings were rendered', () => {
  it('gives its Ingresses’ routes their backends at its next write, byte-equal to a fresh snapshot', () => {
    const balanced = (annotations: Record<string, string>) =>
      ingress({ name: 'balanced', annotations, rules: [{ host: 'balanced.example.com', paths: [{ service: 'app-1' }] }] })
    const annotated = balanced({ 'nginx.org/lb-method': 'least_conn', 'nginx.ingress.kubernetes.io/affinity': 'cookie' })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), annotated].map(added))

    // The previous version sent the routes to the Service's backend, with the defaults.
    const older = new LiveCluster()
    older.apply([...app(1), balanced({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_UPSTREAMS, objects: ['Ingress/default/balanced'] })
    const next = writeAfterUpgrade(old, older, fresh)
    const host = fresh.current.snapshot.get(treeKey(TABLE.host, 'balanced.example.com'))
    expect(next.plan.reasons).toContainEqual(expect.stringMatching(/^backend default_app-1_80_[0-9a-f]{12} is new$/))
    expect(fresh.files().get(FILES.backends)).toContain('    balance leastconn\n    cookie INGRESSCOOKIE insert indirect nocache dynamic\n')
    expect(host).toContain('"upstream":{"balance":"leastconn","cookie":{"name":"INGRESSCOOKIE"}}')
  })
})
