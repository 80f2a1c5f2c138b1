import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before upstream-vhost was rendered: it was read, warned "not yet honoured", and its maps did not exist. */
const BEFORE_UPSTREAM_HOSTS = 16
const NEW_MAPS = [FILES.upstreamHostExactMap, FILES.upstreamHostPrefixMap]

describe('a snapshot written before upstream-vhost was rendered', () => {
  it('renders its Ingresses’ upstream Host into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const internal = (annotations: Record<string, string>) =>
      ingress({ name: 'internal', annotations, rules: [{ host: 'internal.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), internal({ 'nginx.ingress.kubernetes.io/upstream-vhost': 'app-1.svc' })].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), internal({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_UPSTREAM_HOSTS, objects: ['Ingress/default/internal'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.upstreamHostPrefixMap)).toBe('internal.example.com/ app-1.svc\n')
  })
})
