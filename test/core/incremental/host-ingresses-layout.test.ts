import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { WHOLE_HOST_INGRESSES } from '../../../core/model/cluster-state.ts'
import { FILES } from '../../../core/render/files.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { SNAPSHOT_LAYOUT, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app, modified } from '../../support/contracts/cluster-apps.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'
import { SHARED_HOST, teamIngress, teams } from '../../support/shared-host.ts'

/** The layout whose `host-ingresses` was an index of empty entries: every host's Ingresses were read from the object table. */
const BEFORE_HOST_TABLE = SNAPSHOT_LAYOUT - 1

const prefix = `${TABLE.hostIngresses}${SEPARATOR}`

/** What an older version left of `fresh`: the host table's entries empty (not JSON), one more that no Ingress gives now. */
function beforeTheHostTable(fresh: LiveCluster) {
  const old = olderSnapshot(fresh, fresh, { layout: BEFORE_HOST_TABLE, objects: [] })
  const edits = new Map<string, string | undefined>([...fresh.current.snapshot.prefix(prefix)].map((entry) => [entry.key, '']))
  edits.set(treeKey(TABLE.hostIngresses, 'gone.example.com', 'Ingress/default/app-1'), '')
  return { snapshot: old.snapshot.edit(edits).tree, manifest: old.manifest }
}

describe('a snapshot written before the host table held the Ingresses of a host many name', () => {
  it('holds them whole after its next write, and the others empty, byte-equal to a fresh snapshot; a stale entry goes', () => {
    const fresh = new LiveCluster()
    fresh.apply([...app(1), ...teams(WHOLE_HOST_INGRESSES + 1)].map(added))
    const entries = new Map([...fresh.current.snapshot.prefix(prefix)].map((entry) => [entry.key.slice(prefix.length), entry.value]))
    const shared = `${SHARED_HOST}${SEPARATOR}Ingress/team-0/shared`
    expect(JSON.parse(entries.get(shared)!)).toEqual(JSON.parse(fresh.current.snapshot.get(treeKey(TABLE.object, 'Ingress/team-0/shared'))!))
    // The hosts one Ingress names: its alias, app-1's own.
    expect(entries.get(`team-0.example.com${SEPARATOR}Ingress/team-0/shared`)).toBe('""')
    expect(entries.get(`app-1.example.com${SEPARATOR}Ingress/default/app-1`)).toBe('""')
    expect(entries.size).toBe(1 + 2 * (WHOLE_HOST_INGRESSES + 1))

    writeAfterUpgrade(beforeTheHostTable(fresh), fresh, fresh)
  })

  it('derives the hosts from the table after an upgrade as a fresh cluster does', () => {
    const fresh = new LiveCluster()
    fresh.apply([...app(1), ...teams(WHOLE_HOST_INGRESSES + 2)].map(added))
    const older = beforeTheHostTable(fresh)
    const change = modified(teamIngress('team-2', '/team-2-v2'))
    fresh.apply([change])
    writeAfterUpgrade(older, fresh, fresh, [change])
    expect(fresh.files().get(FILES.prefixMap)).toContain(`${SHARED_HOST}/team-2-v2/ `)
  })
})
