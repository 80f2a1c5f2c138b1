import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { guarded } from '../../../core/render/render-fall-through.ts'
import type { SetVar } from '../../../core/render/route-keys.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { ingress } from '../../support/objects.ts'

const set: SetVar = (name, expr, condition = '') => `set ${name} ${expr}${condition ? ` ${condition}` : ''}`
const G = '{ var(txn.fallfrom) -m found }'

describe('the fall-through rounds', () => {
  it('guard each rule of a round: an `if` gains the guard, an `unless` of one term turns into its negation', () => {
    const falling = guarded(set, G)
    expect(falling('key', 'var(txn.path)')).toBe(`set key var(txn.path) if ${G}`)
    expect(falling('key', 'var(txn.path)', 'if { var(txn.vhost) -m found }')).toBe(`set key var(txn.path) if ${G} { var(txn.vhost) -m found }`)
    expect(falling('key', 'var(txn.path)', 'unless { var(txn.vhost) -m found }')).toBe(`set key var(txn.path) if ${G} !{ var(txn.vhost) -m found }`)
    expect(() => falling('key', 'x', 'if { a } or { b }')).toThrow('"or"')
    expect(() => falling('key', 'x', 'unless { a } { b }')).toThrow('one "if" or one "unless"')
  })

  it("are rendered only while some host HTTPRoutes alone serve: an Ingress's host never falls through", () => {
    const cluster = new LiveCluster()
    cluster.apply([...app(1), ingress({ name: 'web', rules: [{ host: 'a.example.com', paths: [{ path: '/', service: 'app-1' }] }] })].map(added))
    expect(cluster.files().get(FILES.fallThroughMap)).toBe('')
    expect(cluster.files().get(FILES.frontend)).not.toContain('fallfrom')
    cluster.apply(
      [
        gatewayClass(),
        gateway('edge', [{ name: 'web' }]),
        httpRoute({ name: 'b', hostnames: ['b.example.com'], rules: [{ matches: [{ value: '/b' }], backends: [{ service: 'app-1' }] }] }),
      ].map(added),
    )
    expect(cluster.files().get(FILES.fallThroughMap)).toBe('b.example.com b.example.com\n')
    expect(cluster.files().get(FILES.frontend)).toContain('fallfrom')
  })
})
