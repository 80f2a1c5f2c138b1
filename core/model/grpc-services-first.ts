import type { Route } from './derive-host.ts'
import { dimensionRule, PATH_DIMENSION, searchRule } from './gateway-conditions.ts'
import type { GatewayPath } from './gateway-route-rules.ts'
import { REGEX_PATH_MARK } from './routes.ts'
import { compareText } from '../compare-text.ts'

/**
 * The GRPCRoute specification ranks the characters of a matching service before those of a
 * matching method. A match of no service (a method alone: a regular expression, which the frontend
 * tries before prefixes) therefore leaves out the host's services that a match of the service
 * alone (the prefix `/<service>`) names: a lookahead of its line (render-regex-paths.ts).
 */

/** The service a GRPCRoute match of a service alone names (its prefix `/<service>`), if it is one. */
export function serviceMatchedAlone(kind: string, path: Pick<GatewayPath, 'match' | 'path'>): string | undefined {
  return kind === 'GRPCRoute' && path.match === 'Prefix' && path.path !== '/' ? path.path.slice(1) : undefined
}

/** The host's matches of no service (`anyService`, keys of `routes`) leave out these services. */
export function withServicesFirst(routes: Map<string, Route>, anyService: ReadonlySet<string>, services: readonly string[]): void {
  if (anyService.size === 0 || services.length === 0) return
  const exceptServices = [...new Set(services)].sort(compareText)
  for (const key of anyService) routes.set(key, { ...routes.get(key)!, exceptServices })
}

/**
 * A service whose matches alone all have header matches is a chain's (condition-chains.ts): a call
 * that meets none of their headers is the next match's, which is a match of no service when one
 * takes it. So that chain gets, after those matches, each match of no service as one more of the
 * prefix `/<service>` whose condition is its own expression on the path (PATH_DIMENSION), in the
 * order the regular expressions are tried (the longest first), before the shorter prefixes.
 * A service one of whose matches alone has no header match takes all its calls: nothing follows.
 */
export function methodsAfterServices(routes: ReadonlyMap<string, Route>, anyService: ReadonlySet<string>, servicesWithHeaders: readonly string[]): Route[] {
  if (anyService.size === 0) return []
  const methods = [...anyService].map((key) => routes.get(key)!).sort(compareRegexOrder)
  return [...new Set(servicesWithHeaders)]
    .filter((service) => !routes.has(`Prefix /${service}`))
    .sort(compareText)
    .flatMap((service) =>
      methods.map(({ exceptServices: _, ...method }) => ({
        ...method,
        match: 'Prefix' as const,
        path: `/${service}`,
        conditions: { values: [{ dimension: PATH_DIMENSION, search: method.path.slice(REGEX_PATH_MARK.length) }] },
      })),
    )
}

/** The order of a host's regular expressions (render-regex-paths.ts ranks its lines so): the longest first. */
function compareRegexOrder(a: Route, b: Route): number {
  return b.path.length - a.path.length || compareText(a.path, b.path)
}

/** The frontend rules a GRPCRoute with a match of a service alone with header matches stores: its chain may test the path. */
export function servicesFirstRules(kind: string, paths: readonly GatewayPath[]): string[] {
  const chained = paths.some((path) => path.conditions && serviceMatchedAlone(kind, path) !== undefined)
  return chained ? [dimensionRule(PATH_DIMENSION), searchRule(PATH_DIMENSION)] : []
}
