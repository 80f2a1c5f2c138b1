import type { Features } from '../annotations/features.ts'
import type { Ingress } from '../kube/ingress.ts'
import { CORS_HEADER_NAME, spellsOrigins } from './cors-notices.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

/**
 * What an Ingress's CORS annotations ask of its routes, with ingress-nginx's defaults for what
 * they leave out. HAProxy answers the preflight itself and adds the headers to the Service's
 * answers (render-cors.ts), reading all of it from maps, so any change is a runtime map edit.
 */
export interface RouteCors {
  /** `*` (any origin, answered with `*`), or the origins echoed back when the request's matches one (`https://*.example.com`: one label). */
  origins: '*' | string[]
  /** Access-Control-Allow-Methods, comma-separated. */
  methods: string
  /** Access-Control-Allow-Headers, comma-separated. */
  headers: string
  /** Access-Control-Expose-Headers, comma-separated; empty for none. */
  expose: string
  /** Access-Control-Max-Age, in seconds. */
  maxAge: number
  /** Whether Access-Control-Allow-Credentials: true is sent: never with `*`, which the CORS protocol forbids. */
  credentials: boolean
}

/** ingress-nginx's defaults (annotations.md, #enable-cors). */
export const CORS_DEFAULTS = {
  methods: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS'],
  headers: ['DNT', 'Keep-Alive', 'User-Agent', 'X-Requested-With', 'If-Modified-Since', 'Cache-Control', 'Content-Type', 'Range', 'Authorization'],
  maxAge: 1_728_000,
  credentials: true,
} as const

/** The CORS of an Ingress's routes: undefined unless enable-cors is "true". */
export function corsOf(ingress: Ingress): RouteCors | undefined {
  const annotations = ingress.metadata.annotations ?? {}
  return corsFrom(ingressAnnotations(ingress).rendered, Object.keys(annotations).some(spellsOrigins))
}

/**
 * The CORS a set of features asks for (what cannot be honoured as written falls back, with a
 * notice: cors-notices.ts). Origins asked for but unreadable allow none: a typo never widens the
 * list to any origin, as the default (`*`) would.
 */
export function corsFrom(features: Features, originsAsked = false): RouteCors | undefined {
  if (features['enable-cors'] !== true) return undefined
  const origins = features['cors-allow-origin'] ?? (originsAsked ? { origins: [] } : { any: true as const })
  const any = 'any' in origins
  return {
    // A regular expression (haproxytech's form) is not honoured: no origin is allowed rather than every one.
    origins: any ? '*' : 'origins' in origins ? origins.origins : [],
    methods: (features['cors-allow-methods'] ?? CORS_DEFAULTS.methods).join(','),
    headers: safeNames(features['cors-allow-headers']) ?? CORS_DEFAULTS.headers.join(','),
    expose: safeNames(features['cors-expose-headers']) ?? '',
    maxAge: features['cors-max-age'] ?? CORS_DEFAULTS.maxAge,
    credentials: !any && (features['cors-allow-credentials'] ?? CORS_DEFAULTS.credentials),
  }
}

function safeNames(names: readonly string[] | undefined): string | undefined {
  return names?.every((name) => CORS_HEADER_NAME.test(name)) ? names.join(',') : undefined
}

interface CorsRoute extends OwnedRoute {
  cors?: RouteCors
}

/** The routes of Ingresses that enable CORS, with it (a refused or redirected route reaches no Service, so it has none). */
export function withCors<R extends CorsRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, corsOf, (route, cors) => (reachesService(route) ? { ...route, cors } : route))
}
