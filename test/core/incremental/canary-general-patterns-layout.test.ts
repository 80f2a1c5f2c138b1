import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before canary patterns of the general safe subset were read: `^be+ta` was refused (the header deciding nothing). */
const BEFORE_GENERAL_PATTERNS = 30

describe('a snapshot written before general canary patterns were read', () => {
  it('searches the pattern it refused at its next write, byte-equal to a fresh snapshot', () => {
    const main = ingress({ name: 'main', createdAt: '2024-01-01T00:00:00Z', rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }] })
    const canary = (pattern: string) =>
      ingress({
        name: 'canary',
        createdAt: '2024-02-01T00:00:00Z',
        annotations: {
          'nginx.ingress.kubernetes.io/canary': 'true',
          'nginx.ingress.kubernetes.io/canary-by-header': 'X-Version',
          'nginx.ingress.kubernetes.io/canary-by-header-pattern': pattern,
        },
        rules: [{ host: 'shop.example.com', paths: [{ service: 'app-2' }] }],
      })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), ...app(2), main, canary('^be+ta')].map(added))
    // The older hapedge refused it, as this one refuses a pattern outside the safe subset.
    const older = new LiveCluster()
    older.apply([...app(1), ...app(2), main, canary('(a+)+')].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_GENERAL_PATTERNS, objects: ['Ingress/default/canary'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.canaryPatternsMap)).toBe('^shop\\.example\\.com\\/\\|P\\|(?:be+ta) 1\n')
  })
})
