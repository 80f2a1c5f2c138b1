import { REFUSED_BACKEND, UNRESOLVED_BACKEND, WEIGHTLESS_BACKEND } from '../model/backend-ref.ts'
import { bindPort } from '../model/bind-address.ts'
import { FILES, lines, portCrtList } from './files.ts'
import { CLIENT_CERT_BIND_OPTIONS, clientCertRules } from './render-client-cert.ts'
import { clientCnRules } from './render-client-cn.ts'
import { appRootRules, hstsRules, httpsRedirectRules, redirectBackend, wwwRedirectRules } from './render-redirects.ts'
import { timeoutLookupRules } from './render-timeouts.ts'
import { upstreamHostLookupRules, upstreamHostRules } from './render-upstream-host.ts'
import { bodySizeRules } from './render-body-size.ts'
import { CORS_RESPONSE_RULES, corsRequestRules } from './render-cors.ts'
import { backendHeaderRule, headerLookupRules, headerRules as renderHeaderRules, uniqueIdFormat } from './render-headers.ts'
import { rewriteRules } from './render-rewrites.ts'
import { regexRouteRules } from './render-regex-paths.ts'
import { canaryRules as renderCanaryRules } from './render-canary.ts'
import { splitRules } from './render-split.ts'
import { conditionRules } from './render-conditions.ts'
import { wildcardHostRule } from './render-wildcard-hosts.ts'
import { fallThroughRules } from './render-fall-through.ts'
import type { SetVar } from './route-keys.ts'
import { FORWARDED_RULES, httpsPortRules, schemeRules } from './render-scheme.ts'
import { ACCESS_SEPARATOR, accessRules, forwardedForRules } from './render-access.ts'
import { limitRules, limitTables } from './render-limits.ts'
import { EXTERNAL_AUTH_RULES, externalAuthLookupRules } from './render-external-auth.ts'
import { misdirectedRules } from './render-misdirected.ts'
import { MIRROR_RULES, mirrorLookupRules } from './render-mirror.ts'
import { gatewayPortBinds, gatewayPortRules, OWN_PORT } from './render-gateway-ports.ts'
import type { GatewayPort } from '../model/settings.ts'

export interface FrontendOptions {
  httpBind: string
  httpsBind: string
  /** Without any certificate there is nothing to offer on the HTTPS bind, so it is left out. */
  tls: boolean
  /** The HTTPS ports of their own whose crt-list has lines (portCrtList): the others' binds are left out, as the HTTPS bind without any. */
  tlsPorts?: readonly number[]
  /** A default certificate heads the crt-list (settings `default-ssl-certificate`); without one, the bind is `strict-sni` (render-tls.ts). */
  defaultCertificate?: boolean
  /** Some host asks its clients for certificates (the client-cert map has entries): its requests are checked (render-client-cert.ts). */
  clientCerts?: boolean
  /** The access groups (source ranges), each checked by its rules; none when absent. */
  accessGroups?: readonly string[]
  /** Whether X-Forwarded-For gives the client's address behind the trusted proxies (TRUSTED_PROXIES_FILE). */
  trustedProxies?: boolean
  /** The access groups' basic authentication rules (render-auth.ts), after their source ranges. */
  authRules?: readonly string[]
  /** The header rules of the served Ingresses (render-headers.ts), in the order they run. */
  headerRules?: readonly string[]
  /** The served canary Ingresses' rules (canary.ts), sorted: the header and cookie names the frontend reads for them; and the HTTPRoutes' (render-split.ts). */
  canaryRules?: readonly string[]
  /** The access groups' limit-allowlist rules (render-limits.ts): their clients are not counted. */
  limitExemptRules?: readonly string[]
  /** Some Gateway's HTTPS listener is served: a request whose Host another listener serves than its SNI name's is answered 421 (render-misdirected.ts). */
  misdirectedRequests?: boolean
  /** HTTP/2 offered on the HTTPS bind (settings `use-http2`); on when absent. */
  http2?: boolean
  /** The proxies (validated CIDRs) whose connections begin with a PROXY protocol header (settings `use-proxy-protocol`). */
  proxyProtocolFrom?: readonly string[]
  /** The Gateway listener ports served on sockets of their own (the cluster's gatewayPorts, render-gateway-ports.ts). */
  gatewayPorts?: readonly GatewayPort[]
  /** Some host HTTPRoutes and GRPCRoutes alone serve (the fall-through map has entries): a request its routes do not take goes on to the next host (render-fall-through.ts). */
  fallThrough?: boolean
}

export const NOT_FOUND_BACKEND = 'hapedge-not-found'

/** The header a refused route answers with: the same for every route, so the frontend never changes with what is refused, and it names no annotation to strangers. */
export const REFUSED_HEADER = 'X-Hapedge-Refused'
export const REFUSED_REASON = 'the Ingress asks for access control that hapedge does not honour'
const UNRESOLVED_REASON = 'the HTTPRoute backendRef this request was sent to does not resolve'
const WEIGHTLESS_REASON = 'every backendRef of the route rule this request matched has weight 0'

/** Lowercase DNS labels separated by single dots: what a Host header must be to select a virtual host. */
const HOST_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'

/**
 * One frontend for HTTP and HTTPS. Routing is data: the host picks a virtual host (exact name,
 * then `*.` + the parent domain, else the rules without host), and `vhost + path` is looked up
 * exactly (Exact paths and Prefix paths themselves), then by the regular-expression paths
 * (render-regex-paths.ts), then by longest prefix (`Prefix` paths
 * plus `/`, so `/aaa` never matches `/aaabbb`); a host HTTPRoutes alone serve whose routes took
 * nothing hands the request on to the next host (render-fall-through.ts); then the default
 * backend. Maps change at runtime without a reload.
 */
export function renderFrontend({
  httpBind,
  httpsBind,
  tls,
  tlsPorts = [],
  defaultCertificate = false,
  clientCerts = false,
  accessGroups = [],
  trustedProxies = false,
  authRules = [],
  headerRules = [],
  canaryRules = [],
  limitExemptRules = [],
  misdirectedRequests = false,
  http2 = true,
  proxyProtocolFrom = [],
  gatewayPorts = [],
  fallThrough = false,
}: FrontendOptions): string {
  const set = (name: string, expr: string, condition = '') => `    http-request set-var(txn.${name}) ${expr}${condition ? ` ${condition}` : ''}`
  const tlsOptions = (list: string) => httpsBindOptions(defaultCertificate, http2, clientCerts, list)
  // Without ports of their own, the rules of the HTTP and HTTPS binds alone, as they always were.
  const ownPorts = gatewayPorts.length > 0
  const ports = [...gatewayPorts].sort((a, b) => a.port - b.port)
  return lines([
    'frontend hapedge',
    `    bind ${httpBind}`,
    ...(tls ? [`    bind ${httpsBind} ${tlsOptions(FILES.crtList)}`] : []),
    ...gatewayPortBinds(ports, (port) => (tlsPorts.includes(port) ? tlsOptions(portCrtList(port)) : undefined)),
    // Before anything reads the connection: from then on `src` is the client the proxy names.
    ...(proxyProtocolFrom.length > 0 ? [`    tcp-request connection expect-proxy layer4 if { src ${proxyProtocolFrom.join(' ')} }`] : []),
    ...uniqueIdFormat(headerRules),
    ...schemeRules(trustedProxies),
    ...forwardedForRules(trustedProxies),
    // Only a well-formed DNS name selects a host: anything else (`evil/.foo.com`, `.foo.com`) is no host at all,
    // so it can never match a wildcard nor be echoed into a redirect.
    set('host', 'req.hdr(host),field(1,:),lower', `if { req.hdr(host),field(1,:),lower -m reg ${HOST_PATTERN} }`),
    set('path', 'path'),
    ...(misdirectedRequests ? misdirectedRules(set) : []),
    ...(ownPorts ? gatewayPortRules(set, ports) : []),
    set('vhost', `var(txn.host),map_str(${FILES.hostsMap})`, ownPorts ? 'unless { var(txn.vhost) -m found }' : ''),
    ...wwwRedirectRules(set),
    set('parent', 'var(txn.host),field(2,.,0)', 'unless { var(txn.vhost) -m found }'),
    set('vhost', `str(*.),concat(,txn.parent,),map_str(${FILES.hostsMap})`, 'if { var(txn.parent) -m found }'),
    wildcardHostRule(set),
    ...httpsPortRules(set, bindPort(httpsBind)),
    ...routeLookupRules(set, canaryRules),
    // A host HTTPRoutes alone serve whose routes took nothing: the next host that would serve the name (render-fall-through.ts).
    ...(fallThrough ? fallThroughRules(set, (falling) => routeLookupRules(falling, canaryRules), ownPorts) : []),
    // Once the host that serves the request is known: its HTTPS redirect and HSTS.
    ...httpsRedirectRules(set, HTTPS_LOCATION),
    // The default backend is the Ingresses': a request no route of a port of its own takes is answered 404, as the Gateway API asks.
    set(
      'backend',
      `str(default),map_str(${FILES.defaultMap})`,
      ownPorts ? `if !{ var(txn.backend) -m found } !${OWN_PORT}` : 'unless { var(txn.backend) -m found }',
    ),
    // Who may reach the host, by certificate, before anything else reads the request for it.
    ...(clientCerts ? [...clientCertRules(set), ...clientCnRules(set)] : []),
    ...timeoutLookupRules(set),
    ...upstreamHostLookupRules(set),
    ...headerLookupRules(set, headerRules),
    ...corsRequestRules(set),
    ...externalAuthLookupRules(set),
    ...mirrorLookupRules(set),
    // A route with source ranges names its access group after its backend (render-maps.ts).
    ...(accessGroups.length > 0
      ? [
          set('access', `var(txn.backend),field(2,${ACCESS_SEPARATOR})`, `if { var(txn.backend) -m sub ${ACCESS_SEPARATOR} }`),
          set('backend', `var(txn.backend),field(1,${ACCESS_SEPARATOR})`, 'if { var(txn.access) -m found }'),
        ]
      : []),
    // Limits before access and authentication, as NGINX's preaccess phase: a client guessing passwords is limited too.
    ...limitRules(set, limitExemptRules),
    ...(accessGroups.length > 0 ? [...accessRules(accessGroups), ...authRules] : []),
    // Once source ranges and basic authentication have let the request in, as ingress-nginx's auth_request runs after them.
    ...EXTERNAL_AUTH_RULES,
    ...bodySizeRules(set),
    ...appRootRules(set),
    ...CORS_RESPONSE_RULES,
    ...hstsRules(),
    ...renderHeaderRules(headerRules, 'res'),
    ...FORWARDED_RULES,
    // The split and the canary once routing and access are done (a canary Ingress on a split path takes its share of the
    // requests, the split the rest), reading the request as the client sent it; and the drawn Service's headers found.
    ...splitRules(set, canaryRules),
    ...renderCanaryRules(set, canaryRules),
    ...backendHeaderRule(set, headerRules, canaryRules),
    // The path rewritten once every redirect and refusal has read it as the client sent it, and the split has drawn its Service.
    ...rewriteRules(set, canaryRules),
    // An Ingress's own headers last: routing, access and authentication have read the request as the client sent it.
    ...renderHeaderRules(headerRules, 'req'),
    ...upstreamHostRules(set, canaryRules),
    // The request copied as its Service is sent it (render-mirror.ts).
    ...MIRROR_RULES,
    '    use_backend %[var(txn.backend)] if { var(txn.backend) -m found }',
    `    default_backend ${NOT_FOUND_BACKEND}`,
    '',
    `backend ${NOT_FOUND_BACKEND}`,
    '    http-request return status 404 content-type text/plain string "404 Not Found: no Ingress rule matches this request"',
    '',
    // Fail closed: the routes of an Ingress whose access control is not honoured are claimed, and never served open.
    ...refusingBackend(REFUSED_BACKEND, '503 Service Unavailable', REFUSED_REASON),
    // An HTTPRoute backendRef that does not resolve (a rule's only ones, or its share of a split): the Gateway API answers 500 (its status says why).
    ...refusingBackend(UNRESOLVED_BACKEND, '500 Internal Server Error', UNRESOLVED_REASON),
    // An HTTPRoute or GRPCRoute rule whose backendRefs all have weight 0 sends to none: the Gateway API answers 500 (HTTPRouteAllBackendsWeightZero).
    ...refusingBackend(WEIGHTLESS_BACKEND, '500 Internal Server Error', WEIGHTLESS_REASON),
    ...redirectBackend(set),
    ...limitTables(),
  ])
}

/**
 * The request's route, from `txn.vhost`: its key (`vhost + path`, the path alone for the rules
 * without host) looked up exactly, then by the regular-expression paths, then by longest prefix,
 * into `txn.backend`; an HTTPRoute's conditional matches after each lookup that may give a chain
 * of them (render-conditions.ts).
 */
function routeLookupRules(set: SetVar, canaryRules: readonly string[]): string[] {
  return [
    set('key', 'var(txn.vhost),concat(,txn.path,)', 'if { var(txn.vhost) -m found }'),
    set('key', 'var(txn.path)', 'unless { var(txn.vhost) -m found }'),
    set('backend', `var(txn.key),map_str(${FILES.exactMap})`),
    ...conditionRules(set, canaryRules, 'exact'),
    ...regexRouteRules(set),
    set('backend', `var(txn.key),map_beg(${FILES.prefixMap})`, 'unless { var(txn.backend) -m found }'),
    ...conditionRules(set, canaryRules, 'prefix'),
  ]
}

/** A backend that answers every request itself with `status` (`503 Service Unavailable`), the reason in its body and in the refusal header. */
function refusingBackend(name: string, status: string, reason: string): string[] {
  return [
    `backend ${name}`,
    `    http-request return status ${status.slice(0, 3)} content-type text/plain string "${status}: ${reason}" hdr ${REFUSED_HEADER} "${reason}"`,
    '',
  ]
}

/**
 * To HTTPS on the same host, path and query, naming the port only when it is not 443 (httpsPortRules). The host is
 * `txn.host`, the Host header without its port, so the HTTP port never follows onto HTTPS (as it
 * does with `redirect scheme`); and `pathq`, not `url`, which is the whole URI of an absolute-form
 * request (`GET http://host/x`).
 */
const HTTPS_LOCATION = 'location https://%[var(txn.host)]%[var(txn.httpsport)]%[pathq]'

/** The HTTPS bind's options (and an HTTPS port's of its own, with its `list`): `strict-sni` unless a default certificate heads the crt-list (render-tls.ts), so that no name gets another's certificate. */
function httpsBindOptions(defaultCertificate: boolean, http2: boolean, clientCerts: boolean, list: string): string {
  const options = [
    defaultCertificate ? [] : ['strict-sni'],
    `crt-list ${list}`,
    clientCerts ? [CLIENT_CERT_BIND_OPTIONS] : [],
    `alpn ${http2 ? 'h2,http/1.1' : 'http/1.1'}`,
  ]
  return `ssl ${options.flat().join(' ')}`
}
