import type { Ingress } from '../kube/ingress.ts'
import { compareText } from '../compare-text.ts'

/** How a route matches: `ImplementationSpecific` is served as `Prefix`; `Regex`, a use-regex path no Prefix path serves (regex-path.ts). */
export type Match = 'Exact' | 'Prefix' | 'Regex'

export interface RouteMatch {
  match: Match
  /**
   * For `Prefix`, without trailing slashes (`/` stays `/`), since they do not change what matches.
   * For `Regex`, REGEX_PATH_MARK and the normalised expression: no other path starts so, so every
   * key made of a host and a path stays unique.
   */
  path: string
}

/** What a `Regex` route's path starts with: never the first character of an HTTP path (`/`). */
export const REGEX_PATH_MARK = '~'

type HttpPath = NonNullable<NonNullable<Ingress['spec']['rules']>[number]['http']>['paths'][number]

export function routeMatch({ pathType, path }: Pick<HttpPath, 'pathType' | 'path'>): RouteMatch {
  const raw = path ?? '/'
  if (pathType === 'Exact') return { match: 'Exact', path: raw }
  const trimmed = raw.replace(/\/+$/, '')
  return { match: 'Prefix', path: trimmed === '' ? '/' : trimmed }
}

/** Total order used everywhere routes are listed, so output never depends on input order. */
export function compareRouteMatch(a: RouteMatch, b: RouteMatch): number {
  return compareText(a.path, b.path) || compareText(a.match, b.match)
}
