import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before canary patterns were searched: `cd|sz` was read as whole values (canary-values.map), and canary-patterns.map did not exist. */
const BEFORE_CANARY_PATTERNS = 24

describe('a snapshot written before canary patterns were searched', () => {
  it('writes the patterns map and moves a searched pattern there at its next write, byte-equal to a fresh snapshot', () => {
    const main = ingress({ name: 'main', createdAt: '2024-01-01T00:00:00Z', rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }] })
    const canary = ingress({
      name: 'canary',
      createdAt: '2024-02-01T00:00:00Z',
      annotations: {
        'nginx.ingress.kubernetes.io/canary': 'true',
        'nginx.ingress.kubernetes.io/canary-by-header': 'Region',
        'nginx.ingress.kubernetes.io/canary-by-header-pattern': 'cd|sz',
      },
      rules: [{ host: 'shop.example.com', paths: [{ service: 'app-2' }] }],
    })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), ...app(2), main, canary].map(added))
    // The older hapedge listed the pattern's values as whole values.
    const older = new LiveCluster()
    const asWholeValues = { ...canary.metadata.annotations, 'nginx.ingress.kubernetes.io/canary-by-header-pattern': '^(cd|sz)$' }
    older.apply([...app(1), ...app(2), main, { ...canary, metadata: { ...canary.metadata, annotations: asWholeValues } }].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_CANARY_PATTERNS, objects: ['Ingress/default/canary'], missingFiles: [FILES.canaryPatternsMap] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.canaryPatternsMap)).toBe('^shop\\.example\\.com\\/\\|P\\|.*(?:cd|sz) 1\n')
    expect(fresh.files().get(FILES.canaryValuesMap)).toBe('')
  })
})
