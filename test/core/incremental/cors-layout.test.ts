import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before CORS was rendered: enable-cors and its settings were read, warned "not yet honoured", and the CORS maps did not exist. */
const BEFORE_CORS = 13
const CORS_MAPS = [FILES.corsExactMap, FILES.corsPrefixMap, FILES.corsOriginsMap]

describe('a snapshot written before CORS was rendered', () => {
  it('renders its Ingresses’ CORS into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const api = (annotations: Record<string, string>) =>
      ingress({ name: 'api', annotations, rules: [{ host: 'api.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    const cors = { 'nginx.ingress.kubernetes.io/enable-cors': 'true', 'nginx.ingress.kubernetes.io/cors-allow-origin': 'https://app.example.com' }
    fresh.apply([...app(1), api(cors)].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), api({})].map(added))

    writeAfterUpgrade(olderSnapshot(older, fresh, { layout: BEFORE_CORS, objects: ['Ingress/default/api'], missingFiles: CORS_MAPS }), older, fresh)
    expect(fresh.files().get(FILES.corsOriginsMap)).toBe('api.example.com/|https://app.example.com 1\n')
    expect(fresh.files().get(FILES.corsPrefixMap)).toMatch(/^api\.example\.com\/ list\//)
  })
})
