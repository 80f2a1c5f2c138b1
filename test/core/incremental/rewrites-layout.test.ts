import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before rewrites were rendered: rewrite-target and x-forwarded-prefix were warned "not yet honoured", and their maps did not exist. */
const BEFORE_REWRITES = 10
const NEW_MAPS = [FILES.rewriteExactMap, FILES.rewritePrefixMap]

describe('a snapshot written before rewrites were rendered', () => {
  it('renders its Ingresses’ rewrites into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const rewritten = ingress({
      name: 'rewritten',
      annotations: { 'haproxy-ingress.github.io/rewrite-target': '/', 'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/app' },
      rules: [{ host: 'rewritten.example.com', paths: [{ path: '/app', pathType: 'Prefix', service: 'app-1' }] }],
    })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), rewritten].map(added))

    // The previous version read the same Ingress, served it without the rewrite, and had none of the new maps.
    const older = new LiveCluster()
    older.apply([...app(1), rewritten].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_REWRITES, objects: ['Ingress/default/rewritten'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.rewritePrefixMap)).toBe('rewritten.example.com/app/ /app||rest||/app\n')
  })
})
