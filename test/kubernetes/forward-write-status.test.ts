import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeApiDouble, KubeObject } from '../support/kube-api-double.ts'
import type { HAProxyCfgStatus } from '../../core/kube/haproxycfg.ts'
import { app } from '../support/contracts/cluster-apps.ts'
import { eventually } from '../support/eventually.ts'
import { startWriteStatusWorld, type WriteStatusWorld } from './write-status-world.ts'
import { ingress } from '../support/objects.ts'

/**
 * `hapedge forward --write-status`, for a cluster whose API server the function cannot reach
 * (the function here has no credentials for it): the forwarder reads the status the function
 * computes (`GET …/status`) after each answer and writes it, and the Events, itself.
 */
describe('hapedge forward --write-status', () => {
  let world: WriteStatusWorld
  let double: KubeApiDouble
  const status = () =>
    double.find({ apiVersion: 'hapedge.io/v1alpha1', kind: 'HAProxyCfg', metadata: { namespace: 'edge-system', name: 'prod' } })?.status as
      | HAProxyCfgStatus
      | undefined

  beforeAll(async () => {
    world = await startWriteStatusWorld(app(1))
    double = world.double
  }, 60_000)
  afterAll(() => world?.stop())

  it('writes the status of each generation and an Event for a rejected Ingress', async () => {
    await eventually('the first status', () => status()?.generation === 1, 30_000)
    expect(status()!.files.length).toBeGreaterThan(2)
    double.put(
      ingress({
        name: 'bad',
        rules: [{ host: 'bad.test', paths: [{ path: '/', service: 'app-1' }] }],
        annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
      }) as KubeObject,
    )
    await eventually('the rejection in the status', () => status()?.rejected.find((rejection) => rejection.object === 'Ingress default/bad'), 30_000)
    expect(status()!.generation).toBe(2)
    await eventually('its Warning Event', () =>
      double.list('v1', 'Event', 'default').find((event) => (event as { involvedObject?: { name?: string } }).involvedObject?.name === 'bad'),
    )
    double.put(
      ingress({
        name: 'warned',
        rules: [{ host: 'warned.test', paths: [{ path: '/', service: 'app-1' }] }],
        annotations: { 'nginx.ingress.kubernetes.io/proxy-buffering': 'on' },
      }) as KubeObject,
    )
    await eventually('the warning in the status', () => status()?.warnings?.find((warning) => warning.object === 'Ingress default/warned'), 30_000)
    const warned = await eventually('its AnnotationsNotHonoured Event', () =>
      double.list('v1', 'Event', 'default').find((event) => (event as { involvedObject?: { name?: string } }).involvedObject?.name === 'warned'),
    )
    expect(warned).toMatchObject({ type: 'Warning', reason: 'AnnotationsNotHonoured' })
  }, 60_000)
})
