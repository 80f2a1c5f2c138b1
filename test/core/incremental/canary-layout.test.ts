import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before canaries were honoured: a canary Ingress's paths were route conflicts, its canary keys a warning, and its maps and rules did not exist. */
const BEFORE_CANARIES = 18
const NEW_MAPS = [FILES.canaryExactMap, FILES.canaryPrefixMap, FILES.canaryValuesMap]

describe('a snapshot written before canaries were honoured', () => {
  it('makes its canary Ingresses canaries at its next write, byte-equal to a fresh snapshot', () => {
    const main = ingress({ name: 'main', createdAt: '2024-01-01T00:00:00Z', rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }] })
    const canary = (annotations: Record<string, string>) =>
      ingress({ name: 'canary', createdAt: '2024-02-01T00:00:00Z', annotations, rules: [{ host: 'shop.example.com', paths: [{ service: 'app-2' }] }] })
    const fresh = new LiveCluster()
    fresh.apply(
      [...app(1), ...app(2), main, canary({ 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-by-header': 'X-Canary' })].map(
        added,
      ),
    )
    const older = new LiveCluster()
    older.apply([...app(1), ...app(2), main, canary({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_CANARIES, objects: ['Ingress/default/canary'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.canaryPrefixMap)).toContain('shop.example.com/ default_app-2_80|0|100|x-canary||')
    expect(fresh.files().get(FILES.frontend)).toContain('req.fhdr(x-canary)')
  })
})
