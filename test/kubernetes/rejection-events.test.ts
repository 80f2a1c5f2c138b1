import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubernetesClusterWriter } from '../../functions/adapters/kubernetes/status-writer.ts'
import { startKubeApiDouble, type KubeApiDouble } from '../support/kube-api-double.ts'
import { kubeConfigOf } from './haproxycfg-fixtures.ts'

const rejections = [
  { object: 'Ingress shop/web', reason: 'spec.rules[0].host: "under_score.example.com" must be a DNS name' },
  { object: 'Ingress shop/late', reason: 'spec.rules[0].http.paths[0]: host "shop.example.com" Prefix / is already served by Ingress shop/web' },
  { object: 'IngressClass hapedge', reason: 'a cluster-scoped object: no namespace to put an Event in' },
]

const eventsIn = (double: KubeApiDouble, namespace: string) =>
  double.list('v1', 'Event', namespace) as { metadata: { name: string }; count: number; involvedObject: { name: string } }[]

describe('Events for rejected Ingresses, against an API server double', () => {
  let double: KubeApiDouble
  beforeAll(async () => {
    double = await startKubeApiDouble()
  })
  afterAll(async () => {
    await double?.stop()
  })

  it('creates one Warning Event per rejected Ingress, about that Ingress, with the reason as its message', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    expect(await writer.recordRejections(rejections)).toEqual({ created: 2, repeated: 0, skipped: 1, errors: [] })
    const events = double.list('v1', 'Event', 'shop')
    expect(events).toHaveLength(2)
    expect(events.find((event) => (event.involvedObject as { name: string }).name === 'web')).toMatchObject({
      type: 'Warning',
      reason: 'Rejected',
      message: rejections[0]!.reason,
      count: 1,
      involvedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', namespace: 'shop', name: 'web' },
      source: { component: 'hapedge' },
    })
  })

  it('raises the count of the same Event when the same rejection comes again, instead of adding another', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    const again = [
      { object: 'Ingress again/web', reason: 'no such Service' },
      { object: 'Ingress again/api', reason: 'no such Service' },
    ]
    expect(await writer.recordRejections(again)).toMatchObject({ created: 2, repeated: 0 })
    const first = eventsIn(double, 'again')
      .map((event) => event.metadata.name)
      .sort()
    expect(await writer.recordRejections(again)).toEqual({ created: 0, repeated: 2, skipped: 0, errors: [] })
    const after = eventsIn(double, 'again')
    expect(after.map((event) => event.metadata.name).sort()).toEqual(first)
    expect(after.map((event) => event.count)).toEqual([2, 2])
  })

  it('creates one Warning Event per Ingress whose annotations are not all honoured, naming each', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    const warnings = [
      { object: 'Ingress warned/web', annotation: 'nginx.ingress.kubernetes.io/proxy-buffering', reason: 'not supported by hapedge' },
      { object: 'Ingress warned/web', annotation: 'hapedge.io/x', reason: 'not a hapedge annotation' },
    ]
    expect(await writer.recordRejections([], warnings)).toEqual({ created: 1, repeated: 0, skipped: 0, errors: [] })
    const [event] = double.list('v1', 'Event', 'warned') as { reason: string; message: string; type: string; involvedObject: object }[]
    expect(event).toMatchObject({ type: 'Warning', reason: 'AnnotationsNotHonoured', involvedObject: { kind: 'Ingress', namespace: 'warned', name: 'web' } })
    for (const { annotation, reason } of warnings) expect(event!.message).toContain(`${annotation}: ${reason}`)
  })

  it('writes at most its bound per call and counts the rest as skipped', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod', eventsPerCall: 3 })
    const many = Array.from({ length: 10 }, (_, i) => ({ object: `Ingress bulk/app-${i}`, reason: 'no such Service' }))
    expect(await writer.recordRejections(many)).toEqual({ created: 3, repeated: 0, skipped: 7, errors: [] })
    expect(eventsIn(double, 'bulk')).toHaveLength(3)
  })

  it('answers what it could not write instead of throwing', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double, 'wrong-token'), cluster: 'prod' })
    const result = await writer.recordRejections(rejections.slice(0, 1))
    expect(result).toMatchObject({ created: 0, repeated: 0 })
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^Event shop\/web\.[0-9a-f]{16}: 401/)
  })
})
