import type { RouteMatch } from '../model/routes.ts'

/**
 * The keys the route maps find a host's routes by, and which map: each Exact path, and each Prefix
 * path itself unless an Exact path has it, in `exact`; each Prefix path plus `/` (`/` alone for
 * the root) in `prefix`, so `/aaa` never matches `/aaabbb`. The frontend looks up the exact key,
 * then the longest prefix; maps keyed by these pick the same route.
 */
export function* routeKeys<R extends RouteMatch>(host: string, routes: readonly R[]): Iterable<['exact' | 'prefix', string, R]> {
  const exact = new Map<string, R>()
  for (const route of routes) if (route.match === 'Exact') exact.set(host + route.path, route)
  for (const route of routes) {
    if (route.match !== 'Prefix') continue
    if (route.path === '/') {
      yield ['prefix', `${host}/`, route]
      continue
    }
    if (!exact.has(host + route.path)) exact.set(host + route.path, route)
    yield ['prefix', `${host}${route.path}/`, route]
  }
  for (const [key, route] of exact) yield ['exact', key, route]
}
