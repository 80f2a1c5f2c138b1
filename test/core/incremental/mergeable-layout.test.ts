import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before mergeable Ingresses were honoured: a master's rule without paths was not indexed under its host. */
const BEFORE_MERGEABLE = 21

describe('a snapshot written before mergeable Ingresses were honoured', () => {
  it('indexes a master under its host and applies its annotations to the minions at its next write, byte-equal to a fresh snapshot', () => {
    const host = 'cafe.example.com'
    const withoutPaths = ingress({ name: 'cafe-master', annotations: { 'nginx.org/mergeable-ingress-type': 'master', 'nginx.org/proxy-read-timeout': '20s' } })
    const master = { ...withoutPaths, spec: { ...withoutPaths.spec, rules: [{ host }] } }
    const minion = ingress({
      name: 'coffee-minion',
      annotations: { 'nginx.org/mergeable-ingress-type': 'minion' },
      rules: [{ host, paths: [{ path: '/coffee', service: 'app-1' }] }],
    })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), master, minion].map(added))
    expect(fullRebuild([...app(1), master, minion]).model.hosts.get(host)?.routes[0]?.timeouts).toEqual({ server: 20_000 })

    // The older hapedge kept both, served the minion alone, and indexed the master under no host.
    const older = new LiveCluster()
    older.apply([...app(1), { ...master, metadata: { ...master.metadata, annotations: {} } }, minion].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_MERGEABLE, objects: ['Ingress/default/cafe-master'] })
    writeAfterUpgrade(old, older, fresh)
  })
})
