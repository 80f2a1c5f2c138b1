import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClusterState } from '../../core/model/cluster-state.ts'
import { Keyspace } from '../../core/snapshot/keyspace.ts'
import { gatewayApiStatus } from '../../core/gateway-status/gateway-api-status.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { request } from '../support/http-client.ts'
import { added, modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * backendRefs that do not resolve, through the real HAProxy, as the specification asks: a Service
 * that does not exist answers 500 (not HAProxy's 503 of a backend without servers), alone or as
 * its share of a split by weight (a weight's change a runtime edit), while the rule's other Services are served; when the Service
 * comes, the routes naming it are derived again and send to it, and their ResolvedRefs turns True. A rule whose
 * backendRefs all have weight 0 sends to none of them, and answers 500 too.
 */

const REQUESTS = 600
/**
 * 8 points: a share's standard deviation is about 2 points at 600 requests, so a right split fails
 * about once in 5,000 runs (5 points, 2.5 deviations, failed about one run in 25), a wrong one always.
 */
const TOLERANCE = 0.08

const halfRoute = (stableWeight: number) =>
  httpRoute({
    name: 'half',
    hostnames: ['half.gw.test'],
    rules: [
      {
        backends: [
          { service: 'stable', weight: stableWeight },
          { service: 'ghost', weight: 100 - stableWeight },
        ],
      },
    ],
  })

/** A rule whose only backendRef has this weight: at 0 it sends to no Service, and the specification answers 500 (HTTPRouteAllBackendsWeightZero). */
const zeroRoute = (weight: number) => httpRoute({ name: 'zero', hostnames: ['zero.gw.test'], rules: [{ backends: [{ service: 'stable', weight }] }] })

describe('backendRefs that do not resolve, through HAProxy', () => {
  let stable: ServiceBackends
  let ghost: ServiceBackends
  let cluster: RuntimeCluster

  beforeAll(async () => {
    stable = await startServices(['stable'])
    ghost = await startServices(['ghost'])
    cluster = await startRuntimeCluster(
      [
        ...stable.objects,
        gatewayClass(),
        gateway('edge', [{ name: 'http', hostname: '*.gw.test' }]),
        httpRoute({ name: 'alone', hostnames: ['alone.gw.test'], rules: [{ backends: [{ service: 'ghost' }] }] }),
        halfRoute(50),
        zeroRoute(0),
      ],
      'hapedge-gateway-unresolved',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await Promise.all([stable?.close(), ghost?.close()])
  })

  const get = (host: string) => request(`http://127.0.0.1:${cluster.httpPort}/`, { headers: { host } })
  const shares = async (host: string) => {
    const counts = new Map<string, number>()
    for (let sent = 0; sent < REQUESTS; sent += 50)
      for (const response of await Promise.all(Array.from({ length: 50 }, () => get(host)))) {
        const answer = answeredBy(response)
        counts.set(answer, (counts.get(answer) ?? 0) + 1)
      }
    return new Map([...counts].map(([answer, count]) => [answer, count / REQUESTS]))
  }
  const resolvedRefs = (route: string) => {
    const { objects } = gatewayApiStatus(new ClusterState({}, new Keyspace(cluster.live.current.snapshot)), '2026-01-01T00:00:00Z')
    const status = objects.find((object) => object.kind === 'HTTPRoute' && object.name === route)
    const conditions = status && 'parents' in status ? status.parents[0]!.conditions : []
    return conditions.filter((condition) => condition.type !== 'Accepted').map(({ status, reason }) => `${status}/${reason}`)
  }

  it('a Service that does not exist answers 500, alone or for its share of a split, and the rest is served', async () => {
    const alone = await get('alone.gw.test')
    expect(alone.status).toBe(500)
    expect(alone.headers['x-hapedge-refused']).toBe('the HTTPRoute backendRef this request was sent to does not resolve')
    const half = await shares('half.gw.test')
    expect([...half.keys()].sort()).toEqual(['HTTP 500', 'stable'])
    expect(Math.abs(half.get('stable')! - 0.5)).toBeLessThan(TOLERANCE)
    expect(resolvedRefs('alone')).toEqual(['False/BackendNotFound'])
  })

  it('the share that answers 500 follows a weight change, applied at runtime', async () => {
    const workers = await cluster.workers()
    await cluster.atRuntime([modified(halfRoute(75))])
    expect(await cluster.workers()).toEqual(workers)
    const shares75 = await shares('half.gw.test')
    expect(Math.abs(shares75.get('HTTP 500')! - 0.25)).toBeLessThan(TOLERANCE)
  })

  it('a rule whose backendRefs all have weight 0 answers 500 and says why, its refs resolved; a weight above 0 and back is applied at runtime', async () => {
    const zero = await get('zero.gw.test')
    expect(zero.status).toBe(500)
    expect(zero.headers['x-hapedge-refused']).toBe('every backendRef of the route rule this request matched has weight 0')
    expect(resolvedRefs('zero')).toEqual(['True/ResolvedRefs'])
    const workers = await cluster.workers()
    await cluster.atRuntime([modified(zeroRoute(1))])
    expect(answeredBy(await get('zero.gw.test'))).toBe('stable')
    await cluster.atRuntime([modified(zeroRoute(0))])
    expect((await get('zero.gw.test')).status).toBe(500)
    expect(await cluster.workers()).toEqual(workers)
  })

  it('when the Service comes, the routes naming it send to it, and their ResolvedRefs turns True', async () => {
    await cluster.byReload([...ghost.objects.map(added), modified(halfRoute(50))])
    expect(answeredBy(await get('alone.gw.test'))).toBe('ghost')
    const half = await shares('half.gw.test')
    expect([...half.keys()].sort()).toEqual(['ghost', 'stable'])
    expect(Math.abs(half.get('stable')! - 0.5)).toBeLessThan(TOLERANCE)
    expect(resolvedRefs('alone')).toEqual(['True/ResolvedRefs'])
    expect(resolvedRefs('half')).toEqual(['True/ResolvedRefs'])
  })
})
