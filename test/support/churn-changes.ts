import type { Random } from '../../bench/random.ts'
import { makeCertificate, type Certificate } from './certificates.ts'
import type { NamedBackend } from './named-backends.ts'
import { endpointSlice, ingress, service, tlsSecret } from './objects.ts'

/**
 * The mixed churn that the agent-churn test and the benchmark both run: paths added and removed,
 * endpoints scaled up, down and to zero, two Services added (changes 60 and 130), the
 * certificate rotated (90) and back (170), and the docs Ingress deleted (185).
 */

export interface ChurnWorld {
  endpoints: Map<string, string[]>
  /** Paths of the shop Ingress, `/pN` → Service. */
  paths: Map<string, string>
  docs: boolean
}

export interface ChurnEvent {
  type: 'MODIFIED' | 'DELETED'
  object: unknown
}

export interface ChurnChange {
  /** 1-based. */
  n: number
  events: ChurnEvent[]
  /** The world once this change is served (a copy). */
  world: ChurnWorld
}

/** One pool of loopback backends per Service; `extra` and `more` are the Services added on the way. */
export const churnPools: Record<string, string[]> = { web: ['web-1', 'web-2', 'web-3', 'web-4'], api: ['api-1', 'api-2'], extra: ['extra-1'], more: ['more-1'] }

/** The certificate served for tls.test at first, and the one it is rotated to (it also names rotated.tls.test). */
export async function makeChurnCertificates(dir: string): Promise<[Certificate, Certificate]> {
  return [
    await makeCertificate({ dir, hosts: ['tls.test'], name: 'first' }),
    await makeCertificate({ dir, hosts: ['tls.test', 'rotated.tls.test'], name: 'second' }),
  ]
}

/** The backend names that may answer `host` + `path` in `world` (`HTTP 404` / `HTTP 503` for no route / no endpoints). */
export function expectedAnswers(world: ChurnWorld, host: string, path: string): string[] {
  const serviceFor = (): string | undefined => {
    if (host === 'docs.test') return world.docs ? 'api' : undefined
    if (host === 'tls.test') return 'web'
    const prefix = /^(\/p\d+)\//.exec(path)?.[1]
    return (prefix && world.paths.get(prefix)) ?? 'web'
  }
  const name = serviceFor()
  if (!name) return ['HTTP 404']
  const names = world.endpoints.get(name) ?? []
  return names.length ? names : ['HTTP 503']
}

const NO_REDIRECT = { 'hapedge.io/ssl-redirect': 'false' }

/**
 * The churn's cluster over `backends` (from `startEdgeStack(pools, …)`): the objects to start
 * with, the seeded changes, and the objects live after the changes taken so far.
 */
export function churnCluster(pools: Record<string, string[]>, backends: ReadonlyMap<string, NamedBackend>, certs: readonly [Certificate, Certificate]) {
  const world: ChurnWorld = {
    endpoints: new Map([
      ['web', ['web-1']],
      ['api', ['api-1']],
    ]),
    paths: new Map(),
    docs: true,
  }
  const live = new Map<string, unknown>()
  const remember = <T extends { kind: string; metadata: { name: string } }>(object: T) => (live.set(`${object.kind}/${object.metadata.name}`, object), object)
  const put = (object: { kind: string; metadata: { name: string } }): ChurnEvent => ({ type: 'MODIFIED', object: remember(object) })
  const slice = (name: string, endpoints: string[]) =>
    endpointSlice(
      name,
      endpoints.map((endpoint) => backends.get(endpoint)!.host),
      [{ port: backends.get(pools[name]![0]!)!.port }],
    )
  const shop = () =>
    ingress({
      name: 'shop',
      annotations: NO_REDIRECT,
      rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'web' }, ...[...world.paths].map(([path, name]) => ({ path, service: name }))] }],
    })
  const docs = ingress({ name: 'docs', annotations: NO_REDIRECT, rules: [{ host: 'docs.test', paths: [{ path: '/', service: 'api' }] }] })
  const secure = ingress({
    name: 'secure',
    annotations: NO_REDIRECT,
    tls: [{ hosts: ['tls.test'], secretName: 'tls-cert' }],
    rules: [{ host: 'tls.test', paths: [{ path: '/', service: 'web' }] }],
  })
  const certificate = (cert: Certificate) => tlsSecret('tls-cert', cert.certPem, cert.keyPem)

  let serviceAdds = 0
  /** The events of change `n`, applied to `world`. */
  const next = (n: number, random: Random): ChurnEvent[] => {
    const roll = random.next()
    if (n === 60 || n === 130) {
      const name = ++serviceAdds === 1 ? 'extra' : 'more'
      world.endpoints.set(name, pools[name]!)
      world.paths.set(`/p${10 + serviceAdds}`, name)
      return [put(service(name)), put(slice(name, pools[name]!)), put(shop())]
    }
    if (n === 90 || n === 170) return [put(certificate(certs[n === 90 ? 1 : 0]))]
    if (n === 185) {
      world.docs = false
      live.delete('Ingress/docs')
      return [{ type: 'DELETED', object: docs }]
    }
    if (roll < 0.5) {
      const pool = roll < 0.35 ? 'web' : 'api'
      const count = random.int(0, pools[pool]!.length)
      const chosen = [...pools[pool]!]
        .sort(() => random.next() - 0.5)
        .slice(0, count)
        .sort()
      world.endpoints.set(pool, chosen)
      return [put(slice(pool, chosen))]
    }
    if (roll < 0.8 || world.paths.size === 0) {
      world.paths.set(`/p${random.int(0, 9)}`, random.next() < 0.5 ? 'web' : 'api')
    } else {
      const removable = [...world.paths.keys()].filter((path) => Number(path.slice(2)) < 10)
      if (removable.length) world.paths.delete(removable[random.int(0, removable.length - 1)]!)
    }
    return [put(shop())]
  }

  return {
    initial: [service('web'), slice('web', ['web-1']), service('api'), slice('api', ['api-1']), shop(), docs, certificate(certs[0]), secure].map(
      remember,
    ) as unknown[],
    /** The world before any change (a copy). */
    start: (): ChurnWorld => structuredClone(world),
    /** Once per cluster: the changes move its world on. */
    *changes(random: Random, count: number): Generator<ChurnChange> {
      for (let n = 1; n <= count; n++) yield { n, events: next(n, random), world: structuredClone(world) }
    },
    /** The objects in the cluster now, for a full render. */
    live: () => [...live.values()],
  }
}
