import { describe, expect, it } from 'vitest'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'

/** The layout before per-route timeouts were rendered: their annotations were read, warned "not yet honoured", and their maps did not exist. */
const BEFORE_TIMEOUTS = 7
const NEW_MAPS = [FILES.timeoutExactMap, FILES.timeoutPrefixMap]

describe('a snapshot written before per-route timeouts were rendered', () => {
  it('renders its Ingresses’ timeouts into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const patient = (annotations: Record<string, string>) =>
      ingress({ name: 'patient', annotations, rules: [{ host: 'patient.example.com', paths: [{ service: 'app-1' }] }] })
    const timed = patient({ 'nginx.ingress.kubernetes.io/proxy-read-timeout': '300', 'haproxy-ingress.github.io/timeout-tunnel': '1h' })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), timed].map(added))

    // The previous version served the Ingress with the default timeouts, and its generation had none of the new maps.
    const older = new LiveCluster()
    older.apply([...app(1), patient({})].map(added))
    const objectKey = treeKey(TABLE.object, 'Ingress/default/patient')
    const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
    const snapshot = older.current.snapshot.edit(
      new Map([
        [objectKey, fresh.current.snapshot.get(objectKey)],
        [settingsKey, JSON.stringify({ ...JSON.parse(older.current.snapshot.get(settingsKey)!), layout: BEFORE_TIMEOUTS })],
      ]),
    ).tree
    const manifest = older.current.manifest.edit(new Map(NEW_MAPS.map((path) => [path, undefined]))).tree
    expect(NEW_MAPS.filter((path) => manifest.get(path) !== undefined)).toEqual([])

    const next = new IncrementalCluster({ snapshot, manifest }, {}, older.context).apply([]).finish()
    expect(next.snapshot.root).toEqual(fresh.current.snapshot.root)
    expect(next.generation.manifest.root).toEqual(fresh.current.manifest.root)
    expect(fresh.files().get(FILES.timeoutPrefixMap)).toBe('patient.example.com/ 300000|3600000\n')
    expect(fresh.files().get(FILES.timeoutExactMap)).toBe('')
  })
})
