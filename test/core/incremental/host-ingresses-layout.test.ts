import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { SNAPSHOT_LAYOUT, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app, modified } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout whose `host-ingresses` was an index of empty entries: a host's Ingresses were read from the object table. */
const BEFORE_HOST_TABLE = SNAPSHOT_LAYOUT - 1

const SHARED = 'shared.example.com'
const teamIngress = (team: string, path = `/${team}`) =>
  ingress({
    name: 'shared',
    namespace: team,
    annotations: { 'nginx.ingress.kubernetes.io/server-alias': `${team}.example.com` },
    rules: [{ host: SHARED, paths: [{ path, service: 'app-1' }] }],
  })

describe('a snapshot written before the host table held the Ingresses', () => {
  it('holds each Ingress under each of its hosts after its next write, byte-equal to a fresh snapshot, and a stale entry goes', () => {
    const objects = [...app(1), ...app(2), teamIngress('blue'), teamIngress('green')]
    const fresh = new LiveCluster()
    fresh.apply(objects.map(added))
    const prefix = `${TABLE.hostIngresses}${SEPARATOR}`
    const entries = [...fresh.current.snapshot.prefix(prefix)]
    expect(entries.map((entry) => entry.key.slice(prefix.length))).toEqual([
      `app-1.example.com${SEPARATOR}Ingress/default/app-1`,
      `app-2.example.com${SEPARATOR}Ingress/default/app-2`,
      `blue.example.com${SEPARATOR}Ingress/blue/shared`,
      `green.example.com${SEPARATOR}Ingress/green/shared`,
      `${SHARED}${SEPARATOR}Ingress/blue/shared`,
      `${SHARED}${SEPARATOR}Ingress/green/shared`,
    ])
    expect(JSON.parse(entries[4]!.value)).toEqual(JSON.parse(fresh.current.snapshot.get(treeKey(TABLE.object, 'Ingress/blue/shared'))!))

    // What the older version left: the same entries, empty, and one no Ingress gives now.
    const old = olderSnapshot(fresh, fresh, { layout: BEFORE_HOST_TABLE, objects: [] })
    const edits = new Map<string, string | undefined>(entries.map((entry) => [entry.key, '']))
    edits.set(treeKey(TABLE.hostIngresses, 'gone.example.com', 'Ingress/default/app-1'), '')
    const older = { snapshot: old.snapshot.edit(edits).tree, manifest: old.manifest }
    writeAfterUpgrade(older, fresh, fresh)
  })

  it('derives a shared host from the table after an upgrade as a fresh cluster does', () => {
    const objects = [...app(1), teamIngress('blue'), teamIngress('green'), teamIngress('red')]
    const fresh = new LiveCluster()
    fresh.apply(objects.map(added))
    const entries = [...fresh.current.snapshot.prefix(`${TABLE.hostIngresses}${SEPARATOR}`)]
    const old = olderSnapshot(fresh, fresh, { layout: BEFORE_HOST_TABLE, objects: [] })
    const older = { snapshot: old.snapshot.edit(new Map(entries.map((entry) => [entry.key, '']))).tree, manifest: old.manifest }
    const change = modified(teamIngress('green', '/green-v2'))
    fresh.apply([change])
    writeAfterUpgrade(older, fresh, fresh, [change])
    expect(fresh.files().get(FILES.prefixMap)).toContain(`${SHARED}/green-v2/ `)
  })
})
