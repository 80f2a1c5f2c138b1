import { matchesPathsExactly, readsRegexPaths } from '../annotations/regex-paths.ts'
import { quote } from '../syntax/fields.ts'
import type { Ingress } from '../kube/ingress.ts'
import { annotationSources, ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'
import { type Capture, readPathPattern } from './path-pattern.ts'
import { readRegexPath } from './regex-path.ts'
import { REGEX_PATH_MARK, type RouteMatch, routeMatch } from './routes.ts'

/**
 * rewrite-target and x-forwarded-prefix of a route. The new path is `before`, what `capture`
 * holds for the request (path-pattern.ts), then `after`: rewrite-target without `$N` replaces the
 * route's prefix (`before` is the target without its trailing `/`, `capture` the rest of the
 * path); with `$N`, the capture groups of a use-regex path. Every part is a map value the
 * frontend reads at request time (render-rewrites.ts), so a change is a runtime map edit.
 */
export interface RouteRewrite {
  path?: { before: string; capture: Capture | typeof NO_CAPTURE; after: string }
  /** The new path of a `Regex` route: the target with `\1`…`\9` for `$1`…`$9`, filled from the expression's groups by HAProxy's map_regm. */
  regexTarget?: string
  /** X-Forwarded-Prefix, set on every request of the route. */
  forwardedPrefix?: string
}

/** The capture of a new path that keeps nothing of the request's: an HTTPRoute's ReplaceFullPath. */
export const NO_CAPTURE = 'none'

type HttpPath = NonNullable<NonNullable<Ingress['spec']['rules']>[number]['http']>['paths'][number]

/** A path refused names the annotation that made it unservable (for the compatibility figures: annotation-outcome.ts). */
export type RoutePath = { match: RouteMatch; rewrite?: RouteRewrite } | { refused: string; annotation: string }

/**
 * How a path of an Ingress is served: its match (a use-regex path's literal prefix, or the
 * regular expression itself when it is no Prefix form), its rewrite, or why it is not served at
 * all (a regular expression outside the safe subset, a target naming a capture the path lacks):
 * never served other than the annotations ask.
 */
export function readRoutePath(ingress: Ingress, path: HttpPath): RoutePath {
  const features = ingressAnnotations(ingress).rendered
  const target = features['rewrite-target']
  const forwardedPrefix = features['x-forwarded-prefix']
  const regex = readsRegexPaths(features) && path.pathType !== 'Exact'
  const written = matchesPathsExactly(features) ? { ...path, pathType: 'Exact' as const } : path
  if (!regex && target === undefined && forwardedPrefix === undefined) return { match: routeMatch(written) }
  const pattern = regex ? readPathPattern(path.path ?? '/') : { prefix: '', captures: [] as const }
  if ('refused' in pattern) return readRegexRoute(ingress, path.path ?? '/', features['use-regex'] === 'case-insensitive', target, forwardedPrefix)
  const match: RouteMatch = regex ? { match: 'Prefix', path: pattern.prefix } : routeMatch(written)
  const rewrite: RouteRewrite = {}
  if (target !== undefined) {
    const rewritten = rewritePath(target, pattern.captures)
    if (typeof rewritten === 'string') return refusedBy(ingress, 'rewrite-target', `${sourceOf(ingress, 'rewrite-target')} ${quote(target)} ${rewritten}`)
    rewrite.path = rewritten
  }
  if (forwardedPrefix !== undefined) rewrite.forwardedPrefix = forwardedPrefix
  return { match, rewrite }
}

/** A use-regex path no Prefix path serves: a `Regex` route, its target filled from its groups (ingress-nginx replaces the whole path). */
function readRegexRoute(ingress: Ingress, path: string, caseInsensitive: boolean, target: string | undefined, forwardedPrefix: string | undefined): RoutePath {
  const read = readRegexPath(path, caseInsensitive)
  if ('refused' in read) return refusedBy(ingress, 'use-regex', `${read.refused} (${sourceOf(ingress, 'use-regex')})`)
  const match: RouteMatch = { match: 'Regex', path: `${REGEX_PATH_MARK}${read.expression}` }
  if (target === undefined && forwardedPrefix === undefined) return { match }
  const rewrite: RouteRewrite = {}
  if (target !== undefined) {
    const filled = regexTarget(target, read.captures)
    if ('refused' in filled) return refusedBy(ingress, 'rewrite-target', `${sourceOf(ingress, 'rewrite-target')} ${quote(target)} ${filled.refused}`)
    rewrite.regexTarget = filled.target
  }
  if (forwardedPrefix !== undefined) rewrite.forwardedPrefix = forwardedPrefix
  return { match, rewrite }
}

/** `$1`…`$9` as the backreferences map_regm fills; any other `$` (an NGINX variable) or a group the path lacks is refused. */
function regexTarget(target: string, captures: number): { target: string } | { refused: string } {
  const stray = /\$(?![1-9])/.exec(target)
  if (stray) return { refused: 'has a "$" that names no capture group ($1 to $9; NGINX variables are not expanded)' }
  const named = Math.max(0, ...[...target.matchAll(/\$([1-9])/g)].map((found) => Number(found[1])))
  if (named > captures)
    return { refused: `refers to $${named}, but the path has ${captures === 0 ? 'no capture group' : `${captures} capture group${captures === 1 ? '' : 's'}`}` }
  return { target: target.replace(/\$([1-9])/g, '\\$1') }
}

const refusedBy = (ingress: Ingress, feature: 'use-regex' | 'rewrite-target', refused: string) => ({ refused, annotation: sourceOf(ingress, feature) })

/** The annotation a feature was read from (or implied by), for a reason that names it. */
function sourceOf(ingress: Ingress, feature: 'use-regex' | 'rewrite-target'): string {
  return annotationSources(ingress).sources[feature]?.replace(/ \(implied\)$/, '') ?? feature
}

/**
 * The new path from a target and the path's capture groups, or why it cannot be made: `$1`…`$9`
 * name groups (NGINX variables such as `$host` are not expanded), and one capture at most is
 * used (`$1$2` of `(/|$)(.*)` is the rest of the path, one capture).
 */
function rewritePath(target: string, captures: readonly Capture[]): RouteRewrite['path'] | string {
  if (!target.includes('$')) return { before: target.replace(/\/+$/, ''), capture: 'rest', after: '' }
  const parts = target.split(/\$([0-9])/)
  const pieces: (string | Capture)[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (i % 2 === 0) {
      if (part.includes('$')) return 'has a "$" that names no capture group ($1 to $9; NGINX variables are not expanded)'
      if (part !== '') pieces.push(part)
      continue
    }
    const capture = captures[Number(part) - 1]
    if (capture === undefined)
      return `refers to $${part}, but the path has ${captures.length === 0 ? 'no capture group (only a use-regex path has them)' : `${captures.length} capture group${captures.length === 1 ? '' : 's'}`}`
    if (capture === 'tail' && pieces.at(-1) === 'slash') pieces[pieces.length - 1] = 'rest'
    else pieces.push(capture)
  }
  const at = pieces.findIndex((piece) => piece === 'slash' || piece === 'tail' || piece === 'rest')
  if (pieces.slice(at + 1).some((piece) => piece === 'slash' || piece === 'tail' || piece === 'rest'))
    return 'uses more than one capture group, which hapedge cannot rewrite to'
  return { before: pieces.slice(0, at).join(''), capture: pieces[at] as Capture, after: pieces.slice(at + 1).join('') }
}

interface RewrittenRoute extends OwnedRoute, RouteMatch {
  rewrite?: RouteRewrite
}

/**
 * The routes of Ingresses that rewrite or set X-Forwarded-Prefix, with their rewrite: each path of
 * the owner on this host read again, the first of a match winning, as collectRoutes keeps it.
 */
export function withRewrites<R extends RewrittenRoute>(host: string, routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(
    routes,
    ingresses,
    (ingress) => rewritesOf(host, ingress),
    (route, rewrites) => {
      const rewrite = rewrites.get(`${route.match} ${route.path}`)
      return rewrite && reachesService(route) ? { ...route, rewrite } : route
    },
  )
}

function rewritesOf(host: string, ingress: Ingress): Map<string, RouteRewrite> | undefined {
  const features = ingressAnnotations(ingress).rendered
  if (features['rewrite-target'] === undefined && features['x-forwarded-prefix'] === undefined) return undefined
  const rewrites = new Map<string, RouteRewrite>()
  for (const rule of ingress.spec.rules ?? []) {
    if ((rule.host ?? '') !== host) continue
    for (const path of rule.http?.paths ?? []) {
      const read = readRoutePath(ingress, path)
      if ('refused' in read || !read.rewrite) continue
      const key = `${read.match.match} ${read.match.path}`
      if (!rewrites.has(key)) rewrites.set(key, read.rewrite)
    }
  }
  return rewrites
}
