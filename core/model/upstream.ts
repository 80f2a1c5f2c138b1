import { asksNothing, type Features } from '../annotations/features.ts'
import { DEFAULT_RETRY_ON } from '../annotations/retry-values.ts'
import { AFFINITY_SETTINGS } from '../annotations/upstream-features.ts'
import { type BackendProtocol, HAPROXY_WORD, type HashBy, isCookieAttribute } from '../annotations/values.ts'
import type { Ingress } from '../kube/ingress.ts'
import type { AnnotationWarning } from './ingress-annotations.ts'
import { annotationSources, ingressAnnotations } from './ingress-annotations.ts'
import { perObject } from './per-object.ts'
import { serviceUpstreams } from './service-upstreams.ts'
import { describeIngress } from './ingress-order.ts'

/**
 * How an Ingress asks HAProxy to speak to and pick the servers of the Services it names: the
 * backend settings of its annotations (backend-protocol, load-balance, upstream-hash-by, cookie
 * affinity, service-upstream, timeout-connect, retries). A Service port's backend is shared by every route naming it, so
 * routes whose settings differ from the defaults go to a backend of their own (backendVariant).
 */
export interface Upstream {
  /** How the servers are spoken to; HTTP/1.1 in clear when absent. */
  protocol?: Exclude<BackendProtocol, 'HTTP'>
  /** The TLS of HTTPS and GRPCS servers: the name verified and sent as SNI, and the CA bundle that verifies them. */
  tls?: UpstreamTls
  /** `balance` other than the cluster's (settings ConfigMap `balance`). */
  balance?: 'roundrobin' | 'leastconn' | 'random'
  /** A consistent hash of what picks the server (upstream-hash-by); it takes precedence over `balance`. */
  hashBy?: HashBy
  /** Cookie affinity: the cookie HAProxy inserts, naming the server. */
  cookie?: AffinityCookie
  /** One server, the Service's ClusterIP and port, instead of its endpoints. */
  serviceUpstream?: true
  /** `timeout connect` in milliseconds (timeout-connect): HAProxy 2.6 sets it per backend only, so it takes a backend of its own. */
  connectTimeout?: number
  /** When a failed request is tried again on another server (proxy-next-upstream, -tries); HAProxy's defaults when absent. */
  retry?: UpstreamRetry
  /** Active health checks of the servers; none when absent (readiness comes from the EndpointSlices). */
  check?: HealthCheck
}

export interface HealthCheck {
  /** An HTTP check's path (GET); a TCP connect check when absent. */
  path?: string
  /** Milliseconds between checks; HAProxy's 2 s when absent. */
  interval?: number
  rise?: number
  fall?: number
}

export interface UpstreamRetry {
  /** `retry-on` keywords and status codes; `['none']` turns retries off. */
  on: string[]
  /** POST, LOCK and PATCH are retried too (NGINX's `non_idempotent`). */
  nonIdempotent?: true
  /** HAProxy's `retries`: the tries asked for less the first. */
  retries?: number
}

export interface UpstreamTls {
  /** The Secret (`namespace/name`) and data key of the CA bundle that verifies the servers' certificates; unverified when absent. */
  ca?: { secret: string; key: string }
  /** The name checked in the certificate (verifyhost) when verified. */
  name?: string
  /** Whether `name` is sent as SNI. */
  sni?: true
}

export interface AffinityCookie {
  name: string
  path?: string
  domain?: string
  /** Max-Age in seconds (session-cookie-max-age, else session-cookie-expires); a session cookie when absent. */
  maxAge?: number
  secure?: true
  sameSite?: 'None' | 'Lax' | 'Strict'
  /** Partitioned (CHIPS): kept per top-level site by browsers that partition third-party cookies. */
  partitioned?: true
  /** SameSite=None is left off for browsers known to reject it (session-cookie-conditional-samesite-none). */
  conditionalSameSiteNone?: true
  /** HttpOnly (NGINX Plus sticky cookie's `httponly`). */
  httpOnly?: true
  /** ingress-nginx's affinity-mode: both keep a session on its server while that server is there (see the README). */
  mode?: 'balanced' | 'persistent'
}

/** ingress-nginx's and haproxy-ingress's default cookie name. */
export const DEFAULT_AFFINITY_COOKIE = 'INGRESSCOOKIE'

export interface UpstreamReading {
  upstream?: Upstream
  /** Settings of the Services the Ingress's per-Service annotations name (service-upstreams.ts), by Service name. */
  services?: ReadonlyMap<string, Upstream>
  warnings: AnnotationWarning[]
}

/** The backend settings of an Ingress's routes to one of its Services. */
export function upstreamFor(reading: UpstreamReading, service: string): Upstream | undefined {
  return reading.services?.get(service) ?? reading.upstream
}

/** An Ingress's backend settings, and what of them is not honoured as written (memoised: objects are immutable). */
export const upstreamOf = perObject(judge)

/** The reading of an Ingress that asks for no feature (most), shared: each setting below is read from one. */
const NO_SETTINGS: UpstreamReading = Object.freeze({ warnings: Object.freeze([]) as never[] })

function judge(ingress: Ingress): UpstreamReading {
  const features = ingressAnnotations(ingress).rendered
  if (asksNothing(features)) return NO_SETTINGS
  const warnings: AnnotationWarning[] = []
  const object = describeIngress(ingress)
  const warn = warnInto(warnings, ingress, object)
  const upstream: Upstream = {}
  const protocol = features['backend-protocol']
  if (protocol && protocol !== 'HTTP') upstream.protocol = protocol
  const tls = upstreamTls(features, upstream.protocol, ingress.metadata.namespace, warn)
  if (tls) upstream.tls = tls
  const hashBy = features['upstream-hash-by']
  if (hashBy) {
    const name = 'header' in hashBy ? hashBy.header : 'cookie' in hashBy ? hashBy.cookie : undefined
    if (name === undefined || HAPROXY_WORD.test(name)) upstream.hashBy = hashBy
    else warn('upstream-hash-by', 'the name holds characters hapedge does not write into the configuration; ignored')
  }
  if (features['load-balance']) {
    if (upstream.hashBy) warn('load-balance', 'upstream-hash-by takes precedence; ignored')
    else upstream.balance = features['load-balance']
  }
  const cookie = affinityCookie(features, warn)
  if (cookie) upstream.cookie = cookie
  if (features['service-upstream']) upstream.serviceUpstream = true
  if (features['timeout-connect'] !== undefined) upstream.connectTimeout = features['timeout-connect']
  const retry = upstreamRetry(features)
  if (retry) upstream.retry = retry
  const check = healthCheck(features, warn)
  if (check) upstream.check = check
  const ingressWide = Object.keys(upstream).length > 0 ? upstream : undefined
  const services = serviceUpstreams(ingress, features, ingressWide, warn)
  return { ...(ingressWide ? { upstream: ingressWide } : {}), ...(services ? { services } : {}), warnings }
}

/** The `warn` of one Ingress's judgement (returned unnamed: tsx names a named closure each time it is made, see tell-notices.ts). */
function warnInto(warnings: AnnotationWarning[], ingress: Ingress, object: string): Warn {
  return (feature, reason) => {
    for (const annotation of annotationSources(ingress).readFrom[feature] ?? [feature]) warnings.push({ object, annotation, reason })
  }
}

/** proxy-next-upstream and its tries; tries alone keep ingress-nginx's default conditions, "error timeout". */
function upstreamRetry(features: Features): UpstreamRetry | undefined {
  const asked = features['proxy-next-upstream']
  const tries = features['proxy-next-upstream-tries']
  if (!asked && tries === undefined) return undefined
  const { on, nonIdempotent } = asked ?? DEFAULT_RETRY_ON
  const retry: UpstreamRetry = { on }
  if (nonIdempotent) retry.nonIdempotent = true
  if (tries !== undefined && on[0] !== 'none') retry.retries = tries - 1
  return retry
}

/** Checks are on with health-check: "true" or any of their settings, off with "false". */
function healthCheck(features: Features, warn: Warn): HealthCheck | undefined {
  const settings = ['health-check-path', 'health-check-interval', 'health-check-rise', 'health-check-fall'] as const
  if (features['health-check'] === false) {
    for (const key of settings) if (features[key] !== undefined) warn(key, 'health checks are turned off (health-check: "false"); ignored')
    return undefined
  }
  if (features['health-check'] !== true && settings.every((key) => features[key] === undefined)) return undefined
  const check: HealthCheck = {}
  if (features['health-check-path'] !== undefined) check.path = features['health-check-path']
  if (features['health-check-interval'] !== undefined) check.interval = features['health-check-interval']
  if (features['health-check-rise'] !== undefined) check.rise = features['health-check-rise']
  if (features['health-check-fall'] !== undefined) check.fall = features['health-check-fall']
  return check
}

type Warn = (feature: keyof Features, reason: string) => void

function upstreamTls(features: Features, protocol: Upstream['protocol'], namespace: string, warn: Warn): UpstreamTls | undefined {
  const tlsKeys = ['proxy-ssl-secret', 'proxy-ssl-verify', 'proxy-ssl-name', 'proxy-ssl-server-name'] as const
  if (protocol !== 'HTTPS' && protocol !== 'GRPCS') {
    for (const key of tlsKeys)
      if (features[key] !== undefined) warn(key, 'the backend protocol is not HTTPS or GRPCS, so no TLS is spoken to the servers; ignored')
    return undefined
  }
  const tls: UpstreamTls = {}
  const name = features['proxy-ssl-name']
  if (name !== undefined) tls.name = name
  if (features['proxy-ssl-server-name'] === true) {
    if (name !== undefined) tls.sni = true
    else warn('proxy-ssl-server-name', 'no proxy-ssl-name names the server; no SNI is sent')
  }
  if (features['proxy-ssl-verify'] === true && features['proxy-ssl-secret']) {
    const { namespace: named, name: secret, key } = features['proxy-ssl-secret']
    tls.ca = { secret: `${named ?? namespace}/${secret}`, key }
  }
  return Object.keys(tls).length > 0 ? tls : undefined
}

function affinityCookie(features: Features, warn: Warn): AffinityCookie | undefined {
  if (features.affinity !== 'cookie') {
    for (const key of AFFINITY_SETTINGS) if (features[key] !== undefined) warn(key, 'no affinity: cookie asks for a cookie; ignored')
    return undefined
  }
  const name = features['session-cookie-name'] ?? DEFAULT_AFFINITY_COOKIE
  if (!HAPROXY_WORD.test(name)) {
    warn('session-cookie-name', 'the name holds characters hapedge does not write into the configuration; no affinity')
    return undefined
  }
  const cookie: AffinityCookie = { name }
  const path = features['session-cookie-path']
  if (path !== undefined) {
    if (isCookieAttribute(path)) cookie.path = path
    else warn('session-cookie-path', 'the path holds characters hapedge does not write into a cookie attribute; ignored')
  }
  if (features['session-cookie-domain'] !== undefined) cookie.domain = features['session-cookie-domain']
  const maxAge = features['session-cookie-max-age'] ?? features['session-cookie-expires']
  if (maxAge !== undefined) cookie.maxAge = maxAge
  if (features['session-cookie-secure'] === true) cookie.secure = true
  if (features['session-cookie-samesite'] !== undefined) cookie.sameSite = features['session-cookie-samesite']
  if (features['session-cookie-partitioned'] === true) cookie.partitioned = true
  if (features['session-cookie-conditional-samesite-none'] === true) {
    if (cookie.sameSite === 'None') cookie.conditionalSameSiteNone = true
    else warn('session-cookie-conditional-samesite-none', 'the cookie is not SameSite=None (session-cookie-samesite); ignored')
  }
  if (features['affinity-mode'] !== undefined) cookie.mode = features['affinity-mode']
  return cookie
}
