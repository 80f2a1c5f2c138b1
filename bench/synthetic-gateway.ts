import { gateway, gatewayClass, httpRoute, type RuleSpec } from '../test/support/gateway-objects.ts'
import type { Random } from './random.ts'
import { createdAt, INGRESSES_PER_NAMESPACE, PATHS, SERVICES_PER_NAMESPACE, syntheticServices, type KubeObjectLiteral } from './synthetic-cluster.ts'

/** The Gateway every synthetic HTTPRoute attaches to: one HTTP listener that takes routes from every namespace. */
export const BENCH_GATEWAY = { name: 'edge', namespace: 'gateway' }

/**
 * A cluster served through the Gateway API instead of Ingresses, of the same shape as
 * `syntheticCluster`: the same Services, one Gateway, and `routes` HTTPRoutes with about 1.2
 * hostnames and 1–5 path rules each, a tenth of the rules split between two weighted Services.
 */
export function syntheticGatewayCluster(routes: number, random: Random): KubeObjectLiteral[] {
  const objects: KubeObjectLiteral[] = [
    gatewayClass() as KubeObjectLiteral,
    gateway(BENCH_GATEWAY.name, [{ name: 'http', from: 'All' }], { namespace: BENCH_GATEWAY.namespace }) as KubeObjectLiteral,
    ...syntheticServices(Math.ceil(routes / INGRESSES_PER_NAMESPACE), random),
  ]
  for (let i = 0; i < routes; i++) objects.push(syntheticHttpRoute(i, random))
  return objects
}

/** HTTPRoute `i`, in the namespace Ingress `i` of `syntheticCluster` would have. */
export function syntheticHttpRoute(i: number, random: Random, name = `route-${i}`): KubeObjectLiteral {
  const namespace = `team-${Math.floor(i / INGRESSES_PER_NAMESPACE)}`
  const service = () => `svc-${random.int(0, SERVICES_PER_NAMESPACE - 1)}`
  const paths = [...new Set(Array.from({ length: random.int(1, 5) }, () => random.pick(PATHS)))]
  const rules: RuleSpec[] = paths.map((path) => ({
    matches: [{ type: random.chance(0.2) ? 'Exact' : 'PathPrefix', value: path }],
    backends: random.chance(0.1)
      ? [
          { service: service(), weight: 90 },
          { service: service(), weight: 10 },
        ]
      : [{ service: service() }],
  }))
  const hostnames = [`${name}.${namespace}.example.com`, ...(random.chance(0.2) ? [`www.${name}.${namespace}.example.com`] : [])]
  return httpRoute({
    name,
    namespace,
    createdAt: createdAt(i),
    parents: [BENCH_GATEWAY],
    hostnames,
    rules,
  }) as KubeObjectLiteral
}
