import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

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
    // The frontend left out stands for the older version's, which had no timeout lookups.
    const old = olderSnapshot(older, fresh, { layout: BEFORE_TIMEOUTS, objects: ['Ingress/default/patient'], missingFiles: [...NEW_MAPS, FILES.frontend] })
    const next = writeAfterUpgrade(old, older, fresh)
    expect(next.plan.reasons).toContain('the frontend changed: this version of hapedge renders it with rules the stored generation lacks')
    expect(fresh.files().get(FILES.timeoutPrefixMap)).toBe('patient.example.com/ 300000|3600000\n')
    expect(fresh.files().get(FILES.timeoutExactMap)).toBe('')
  })
})
