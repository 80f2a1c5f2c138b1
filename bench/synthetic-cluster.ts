import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { endpointSlice, ingress, ingressClass, service, tlsSecret, type PathSpec } from '../test/support/objects.ts'
import type { Random } from './random.ts'

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../test/fixtures/tls/${name}`, import.meta.url)), 'utf8')
export const certificates = [
  { certPem: fixture('shop.example.com.crt'), keyPem: fixture('shop.example.com.key') },
  { certPem: fixture('apps.example.com.crt'), keyPem: fixture('apps.example.com.key') },
]

export const INGRESSES_PER_NAMESPACE = 40
export const SERVICES_PER_NAMESPACE = 10
export const PATHS = ['/', '/api', '/api/v1', '/static', '/assets', '/login', '/admin', '/graphql', '/health', '/docs']

export type KubeObjectLiteral = { kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> } } & Record<string, unknown>

/**
 * A cluster with the shape of real ones: about 1.2 hosts and 1–5 paths per Ingress, Services
 * with 1–20 endpoints, about 10% of Ingresses with TLS, and a few hosts shared by many Ingresses.
 */
export function syntheticCluster(ingresses: number, random: Random): KubeObjectLiteral[] {
  const objects: KubeObjectLiteral[] = [ingressClass('hapedge', true), ...syntheticServices(Math.ceil(ingresses / INGRESSES_PER_NAMESPACE), random)]
  for (let i = 0; i < ingresses; i++) objects.push(...syntheticIngress(i, random))
  return objects
}

/** The Services of `namespaces` namespaces (`team-0`, …), each with its EndpointSlice of 1–20 endpoints. */
export function syntheticServices(namespaces: number, random: Random): KubeObjectLiteral[] {
  const objects: KubeObjectLiteral[] = []
  for (let n = 0; n < namespaces; n++) {
    const namespace = `team-${n}`
    for (let s = 0; s < SERVICES_PER_NAMESPACE; s++) {
      objects.push(service(`svc-${s}`, [{ port: 80, name: 'http' }], namespace))
      objects.push(endpointSlice(`svc-${s}`, endpoints(n, s, random.int(1, 20)), [{ port: 8080, name: 'http' }], { name: `svc-${s}-abcde`, namespace }))
    }
  }
  return objects
}

export function endpoints(namespace: number, service: number, count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, e) => `10.${namespace % 256}.${(Math.floor(namespace / 256) * 16 + service) % 256}.${((e + offset) % 250) + 1}`)
}

/** The creation time of object `i`: a second after object `i - 1`, so the oldest comes first. */
export const createdAt = (i: number): string => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString().replace('.000', '')

/** Ingress `i` (and its TLS Secret when it has one). */
export function syntheticIngress(i: number, random: Random, name = `app-${i}`): KubeObjectLiteral[] {
  const n = Math.floor(i / INGRESSES_PER_NAMESPACE)
  const namespace = `team-${n}`
  const paths = (count: number): PathSpec[] =>
    random
      .next()
      .toString()
      .slice(2, 2 + count)
      .split('')
      .map((digit) => PATHS[Number(digit)]!)
      .filter((path, index, all) => all.indexOf(path) === index)
      .map((path) => ({ path, service: `svc-${random.int(0, SERVICES_PER_NAMESPACE - 1)}`, port: random.chance(0.5) ? 'http' : 80 }))
  const hosts = [`${name}.${namespace}.example.com`, ...(random.chance(0.2) ? [`www.${name}.${namespace}.example.com`] : [])]
  const rules = hosts.map((host) => ({ host, paths: paths(random.int(1, 5)) }))
  if (random.chance(0.03)) rules.push({ host: `shared-${i % 20}.example.com`, paths: [{ path: `/${name}`, service: 'svc-0', port: 'http' }] })
  const tls = random.chance(0.1)
  const objects: KubeObjectLiteral[] = [
    ingress({
      name,
      namespace,
      createdAt: createdAt(i),
      rules,
      ...(tls ? { tls: [{ hosts, secretName: `${name}-tls` }] } : {}),
    }),
  ]
  if (tls) objects.push(tlsSecret(`${name}-tls`, certificates[0]!.certPem, certificates[0]!.keyPem, namespace))
  return objects
}
