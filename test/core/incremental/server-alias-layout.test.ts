import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before server-alias was honoured: the annotation was warned "not yet honoured", and the aliases were not indexed as hosts. */
const BEFORE_ALIASES = 14

describe('a snapshot written before server-alias was honoured', () => {
  it('indexes its Ingresses’ aliases and serves them at its next write, byte-equal to a fresh snapshot', () => {
    const shop = (annotations: Record<string, string>) =>
      ingress({ name: 'shop', annotations, rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), shop({ 'nginx.ingress.kubernetes.io/server-alias': 'www.shop.example.com' })].map(added))

    const older = new LiveCluster()
    older.apply([...app(1), shop({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_ALIASES, objects: ['Ingress/default/shop'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.hostsMap)).toContain('\nwww.shop.example.com shop.example.com\n')
  })
})
