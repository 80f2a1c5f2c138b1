import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { accessGroupName } from '../../../core/model/access-group.ts'
import { limitsOf } from '../../../core/model/route-limits.ts'
import { FILES } from '../../../core/render/files.ts'
import { limitExemptFile, limitValue } from '../../../core/render/render-limits.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before rate limits were honoured: they were read, warned "not supported", and their maps did not exist. */
const BEFORE_LIMITS = 22
const NEW_MAPS = [FILES.limitExactMap, FILES.limitPrefixMap]

describe('a snapshot written before rate limits were honoured', () => {
  it('renders its Ingresses’ limits and allowlist into files it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const limited = (annotations: Record<string, string>) =>
      ingress({ name: 'limited', annotations, rules: [{ host: 'limited.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), limited({ 'nginx.ingress.kubernetes.io/limit-rps': '5', 'nginx.ingress.kubernetes.io/limit-allowlist': '10.0.0.0/8' })].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), limited({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_LIMITS, objects: ['Ingress/default/limited'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    const limits = limitsOf({ 'limit-rps': 5 }, 'Ingress default/limited')!
    expect(fresh.files().get(FILES.limitPrefixMap)).toBe(`limited.example.com/ ${limitValue(limits)}\n`)
    expect(fresh.files().get(limitExemptFile(accessGroupName('default', 'limited')))).toBe('10.0.0.0/8\n')
  })
})
