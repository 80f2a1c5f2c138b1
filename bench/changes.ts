import type { WatchEvent } from '../core/incremental/watch-event.ts'
import { endpointSlice, service, tlsSecret } from '../test/support/objects.ts'
import type { Random } from './random.ts'
import { certificates, endpoints, INGRESSES_PER_NAMESPACE, SERVICES_PER_NAMESPACE, syntheticIngress, type KubeObjectLiteral } from './synthetic-cluster.ts'

export const CHANGE_KINDS = ['ingress-add', 'ingress-path', 'ingress-delete', 'endpoints-scale', 'service-port', 'secret-rotate', 'annotation-value'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]

/** The annotation whose value the `annotation-value` change sets: ingress-nginx's read timeout, kept in the timeout maps. */
const ANNOTATION_VALUE_KEY = 'nginx.ingress.kubernetes.io/proxy-read-timeout'

/** The live objects of a benchmark cluster, and the next change of each kind as watch events. */
export class ChangeSource {
  private readonly live = new Map<string, KubeObjectLiteral>()
  private sequence = 0

  constructor(
    objects: KubeObjectLiteral[],
    private readonly ingresses: number,
    private readonly random: Random,
  ) {
    for (const object of objects) this.live.set(key(object), object)
  }

  objects(): IterableIterator<KubeObjectLiteral> {
    return this.live.values()
  }

  next(kind: ChangeKind): WatchEvent[] {
    const k = this.sequence++
    const random = this.random
    switch (kind) {
      case 'ingress-add': {
        const [ingress] = syntheticIngress(random.int(0, this.ingresses - 1), random, `bench-add-${k}`)
        return [this.put(ingress!)]
      }
      case 'ingress-path': {
        const ingress = this.pickIngress()
        const spec = ingress.spec as { rules: { host: string; http: { paths: unknown[] } }[] }
        const rules = structuredClone(spec.rules)
        rules[0]!.http.paths.push({ path: `/bench-${k}`, pathType: 'Prefix', backend: { service: { name: 'svc-1', port: { name: 'http' } } } })
        return [this.put({ ...ingress, spec: { ...spec, rules } })]
      }
      case 'ingress-delete': {
        const ingress = this.pickIngress()
        this.live.delete(key(ingress))
        return [{ type: 'DELETED', object: ingress }]
      }
      case 'endpoints-scale': {
        // A rollout step: one to three endpoints come or go, never below one.
        const { namespace, n, s } = this.pickService()
        const slice = this.live.get(`EndpointSlice/${namespace}/svc-${s}-abcde`) as unknown as { endpoints: unknown[] }
        const count = Math.max(1, slice.endpoints.length + random.pick([-3, -2, -1, 1, 2, 3]))
        return [this.put(endpointSlice(`svc-${s}`, endpoints(n, s, count), [{ port: 8080, name: 'http' }], { name: `svc-${s}-abcde`, namespace }))]
      }
      case 'service-port': {
        const { namespace, s } = this.pickService()
        const current = this.live.get(`Service/${namespace}/svc-${s}`) as unknown as { spec: { ports: { port: number }[] } }
        const port = current.spec.ports[0]!.port === 80 ? 81 : 80
        return [this.put(service(`svc-${s}`, [{ port, name: 'http' }], namespace))]
      }
      case 'annotation-value': {
        // The value of an honoured annotation read at request time (a per-route map value): what issue 20 wants applied without a reload.
        const ingress = this.pickIngress()
        const annotations = { ...ingress.metadata.annotations, [ANNOTATION_VALUE_KEY]: String(random.int(5, 600)) }
        return [this.put({ ...ingress, metadata: { ...ingress.metadata, annotations } })]
      }
      case 'secret-rotate': {
        const secrets = [...this.live.values()].filter((object) => object.kind === 'Secret')
        const secret = random.pick(secrets)
        const certificate = certificates[k % 2]!
        return [this.put(tlsSecret(secret.metadata.name, certificate.certPem, certificate.keyPem, secret.metadata.namespace))]
      }
    }
  }

  private put(object: KubeObjectLiteral): WatchEvent {
    const type = this.live.has(key(object)) ? 'MODIFIED' : 'ADDED'
    this.live.set(key(object), object)
    return { type, object }
  }

  private pickIngress(): KubeObjectLiteral {
    for (;;) {
      const i = this.random.int(0, this.ingresses - 1)
      const candidate = this.live.get(`Ingress/team-${Math.floor(i / INGRESSES_PER_NAMESPACE)}/app-${i}`)
      if (candidate) return candidate
    }
  }

  private pickService() {
    const n = this.random.int(0, Math.ceil(this.ingresses / INGRESSES_PER_NAMESPACE) - 1)
    return { namespace: `team-${n}`, n, s: this.random.int(0, SERVICES_PER_NAMESPACE - 1) }
  }
}

const key = (object: KubeObjectLiteral) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`
