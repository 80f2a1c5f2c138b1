import { SEPARATOR } from './separator.ts'

/** The snapshot's tables and indexes by name: one list, so code that reads ahead names the same keys the engine reads. */
export const TABLE = {
  object: 'object',
  invalid: 'invalid',
  hostIngresses: 'host-ingresses',
  serviceSlices: 'service-slices',
  secretIngresses: 'secret-ingresses',
  authSecretIngresses: 'auth-secret-ingresses',
  headersConfigMapIngresses: 'headers-config-map-ingresses',
  defaultBackendIngresses: 'default-backend-ingresses',
  unclassedIngresses: 'unclassed-ingresses',
  classIngresses: 'class-ingresses',
  ingressClass: 'ingress-class',
  settings: 'settings',
  host: 'host',
  hostRejections: 'host-rejections',
  backend: 'backend',
  backendUse: 'backend-use',
  serviceBackends: 'service-backends',
  caFileBackends: 'ca-file-backends',
  defaultBackend: 'default-backend',
  objectRejection: 'object-rejection',
  ingressWarnings: 'ingress-warnings',
  secretHosts: 'secret-hosts',
  accessGroup: 'access-group',
  headerRules: 'header-rules',
  canaryRules: 'canary-rules',
  headerRuleUses: 'header-rule-uses',
  canaryRuleUses: 'canary-rule-uses',
  resourceVersion: 'resource-version',
  hostHttpRoutes: 'host-http-routes',
  gatewayHttpRoutes: 'gateway-http-routes',
  serviceHttpRoutes: 'service-http-routes',
  gatewayStatus: 'gateway-status',
  routeStatusReads: 'route-status-reads',
  listenerRoutes: 'listener-routes',
} as const

/**
 * Which indexes a snapshot holds, recorded with the options it was derived under: a snapshot of
 * an older layout (or none) has the indexes it lacks built at its next write. 2: `class-ingresses`.
 * 3: every stored TLS Secret judged (JUDGED_SECRETS_LAYOUT). 4: every Ingress's annotations read
 * (`ingress-warnings`, refused Ingresses' routes and rejections), which the next write of an older snapshot does.
 * 5: source ranges honoured (`access-group`): an Ingress refused for them before is read again.
 * 6: every host's redirects and HSTS rendered into their maps (written, empty or not, by that write).
 * 7: basic authentication honoured (`auth-secret-ingresses`): an Ingress refused for it before is read again and indexed.
 * 8: per-route timeouts (timeout-server, timeout-tunnel) rendered into their maps (written, empty or not, by that write).
 * 11: rewrite-target, use-regex and x-forwarded-prefix rendered into the rewrite maps (written, empty or not, by that write).
 * 12: request and response headers rendered (`header-rules` per Ingress, the header maps written, empty or not, by that write).
 * 13: per-route body size limits (proxy-body-size) rendered into their maps (written, empty or not, by that write).
 * 14: CORS rendered into its maps (cors-exact, cors-prefix, cors-origins: written, empty or not, by that write).
 * 15: server-alias honoured: every Ingress's aliases indexed as its hosts and served from the hosts map.
 * 16: backend settings honoured (backend-protocol, proxy-ssl-*, load-balance, upstream-hash-by, affinity, service-upstream): an
 *     Ingress's routes go to a backend of their own, CA Secrets are indexed with its Secrets (`auth-secret-ingresses`), CA files by backend.
 * 17: upstream-vhost rendered into its maps (upstream-host-exact, upstream-host-prefix: written, empty or not, by that write).
 * 18: custom-headers honoured: every ConfigMap sent is kept (not the settings' alone), Ingresses indexed by the ConfigMap
 *     their custom-headers reads (`headers-config-map-ingresses`); an older snapshot holds none of those ConfigMaps until the next full resync.
 * 19: canary Ingresses honoured (`canary-rules` per canary Ingress; canary-exact, canary-prefix, canary-values written, empty or not, by that write).
 * 20: external authentication honoured (external-auth-exact, external-auth-prefix written, empty or not, by that write; lua/external-auth.lua
 *     written with the global settings): an Ingress refused for auth-url before is read again.
 * 22: mergeable Ingresses honoured: a master's rules without paths are indexed under their hosts.
 * 23: rate and connection limits honoured (limit-exact, limit-prefix written, empty or not, by that write; an Ingress's
 *     limit-allowlist in its access group's limit-exempt ACL file).
 * 25: canary patterns searched as NGINX does (canary-patterns written, empty or not, by that write).
 * 26: client certificates honoured (client-cert written, empty or not, by that write): an Ingress refused for auth-tls-secret
 *     before is read again, and its CA Secret indexed with its Secrets (`auth-secret-ingresses`).
 * 27: auth-tls-verify-depth honoured: every host asking for client certificates has its CA bundle's issuers in client-cert
 *     (written by that write; without them its clients' certificates would be refused).
 * 28: the Gateway API read (`host-http-routes`, `gateway-http-routes`; an older snapshot holds no Gateway API object, so they
 *     start empty) and the `gateway-controller` setting recorded with the settings.
 * 29: use-regex paths that are no Prefix form served as regex routes (path-regex, rewrite-regex written, empty or not, by that write):
 *     an Ingress refused for such a path before is read again.
 * 30: auth-tls-match-cn honoured (client-cn written, empty or not, by that write): an Ingress refused for it before is read again.
 * 31: canary-by-header-pattern of the general safe subset searched (canary-patterns): a canary refused it before is read again.
 * 32: each header and canary rule's count of objects (`header-rule-uses`, `canary-rule-uses`), counted once from the objects' rules.
 * 33: an HTTPRoute rule's weighted Services split however many they are (split-exact, split-prefix written, empty or not, by that
 *     write; a two-way split leaves the canary maps and the `canary` rule for them and `split`), RegularExpression paths served:
 *     an HTTPRoute refused for either before is read again.
 * 34: NGINX snippets translated through a vocabulary (nginx-snippet.ts): a snippet's headers become header rules (a variable's
 *     its own, with the frontend's unique-id-format) and its proxy_ssl_verify the backend's; every snippet was refused whole before.
 * 35: HTTPRoute filters and timeouts honoured (gateway-filters.ts: header rules per HTTPRoute, the rewrite, location, upstream-host
 *     and timeout maps; the frontend's ReplaceFullPath rule and the redirect backend's rules for a redirect made from the request):
 *     an HTTPRoute refused for them before is read again.
 * 36: HSTS from the settings (hsts, hsts-max-age, hsts-include-subdomains, hsts-preload: unknown settings before), for the hosts
 *     whose certificate's Ingress says nothing of it: the settings are read again and every host derived again.
 * 37: HTTPRoute method, header and query parameter matches served (condition, condition-keys, condition-regex written, empty or
 *     not, by that write): an HTTPRoute refused for them before is read again.
 * 38: an HTTPRoute rule whose backendRefs all fail to resolve answers 500 (hapedge-unresolved) and its route is served: a route
 *     refused for it before is derived again (markLayoutChanged touches every HTTPRoute).
 * 39: an HTTPRoute's wildcard host served on names of any number of labels (wildcard-hosts written, empty or not, by that write;
 *     the frontend's lookup of it): an HTTPRoute refused for a wildcard host before is derived again.
 * 40: a Gateway's HTTPS listener without hostname gives the default certificate when the settings name none, and the served HTTPS
 *     listeners' hostnames are `maps/tls-listeners.map` (421 for a misdirected request): the settings entry records both
 *     (defaultCertificate, tlsListeners), and the map is written, empty or not.
 * 41: a Gateway listener on a port neither bind is (nor 80 for HTTP, 443 for HTTPS) is refused (PortUnavailable) and its routes not
 *     attached there: every Gateway and HTTPRoute is derived again (markLayoutChanged touches them).
 * 42: a backendRef to a Service that does not exist does not resolve (BackendNotFound: its requests answered 500, not 503), and a
 *     rule's share of those that do not resolve is one place of its split (hapedge-unresolved): HTTPRoutes indexed by the Services
 *     they name (`service-http-routes`, built by that write, indexRouteServices) and derived again.
 * 43: GRPCRoutes are served (routes on the gRPC path, HTTP/2 backends): indexed under their hosts, Gateways and Services (indexClasses),
 *     and derived again with every Gateway's routes.
 * 44: the header filters of a rule's one weighted backendRef are served as the rule's own (they were refused): an HTTPRoute refused for
 *     them before is derived again (markLayoutChanged touches every HTTPRoute).
 * 45: the Gateway API status kept per object (`gateway-status`, with `route-status-reads` and `listener-routes`:
 *     reconcile-gateway-status.ts), computed for what a commit touches; that write computes every one.
 * 46: a Gateway listener's allowedRoutes Selector honoured over the Namespaces' labels (Namespace objects kept, name and labels;
 *     an older snapshot holds none, so a Selector admits no route until a resync brings them): every HTTPRoute and GRPCRoute is indexed again
 *     under the hosts such a listener may give it.
 * 47: an HTTPRoute and a GRPCRoute on one listener with a hostname in common: only the older is accepted there (both were
 *     served): every route is derived again (markLayoutChanged touches them all).
 * 48: 47's report names the accepted route as first (the older, then by namespace/name), not "older" (a tie of the two goes by
 *     namespace/name, then kind): every route is derived again.
 * 49: a GRPCRoute match of no service leaves to the matches of a service alone on its host their services' calls (a lookahead
 *     in its path-regex line): every host is derived again.
 * 50: an HTTPRoute's RequestMirror served (mirror-exact, mirror-prefix and lua/mirror.lua written, empty or not, by that write;
 *     `global` loads the script): HTTPRoutes indexed under the Services they mirror to (indexRouteServices), and every route
 *     derived again (markLayoutChanged touches them all).
 * 51: lua/mirror.lua gives a mirror's copy the X-Forwarded-For its Service is sent: written again by that write (with the settings).
 * 52: with use-http2 false a GRPCRoute is not attached to HTTPS listeners (no HTTP/2, which gRPC needs: NotAllowedByListeners, and
 *     GRPCRoute not among their supportedKinds): every Gateway and route is derived again.
 * 53: the header filters of a backendRef among several weighted ones are served (the drawn Service's, found by the split's pick),
 *     and a header both a rule and its backendRef change is the backendRef's after the rule's (both were refused): every route is
 *     derived again; the frontend draws the split and the canary before the route's request headers are set.
 * 54: a wildcard HTTPS listener takes names of any number of labels for the misdirected-request check (tls-wildcard-listeners
 *     written, empty or not, by that write, with the settings; the frontend's lookup of it).
 * 55: a Gateway listener on a port of the cluster's gatewayPorts is served on a socket of its own (hosts `name:port`), and the
 *     PortUnavailable report of one elsewhere names those ports: every Gateway and route is derived again (markLayoutChanged touches them).
 * 56: a GRPCRoute match of no service leaves to a service matched alone with header matches its calls too, and follows those
 *     matches in the service's chain (its expression on the path, `cond|p`): every route is derived again (markLayoutChanged touches them).
 * 57: an HTTPRoute and a GRPCRoute on one listener with a hostname in common are both served (47 accepted only the older there),
 *     as gateway-api #4598 lets an implementation: every route is derived again.
 * 58: ingress-nginx's mirror-target, mirror-host and mirror-request-body served (a route's URL mirror in the mirror maps;
 *     lua/mirror.lua sends it): every Ingress is judged and every route derived again.
 * 59: an HTTPS port of its own (gatewayPorts) has a crt-list of its own (`tls/crt-list-<port>.txt`, its listeners' certificates
 *     and the default one), so a name given another certificate on another port gets its own on each: every host is derived
 *     again, which writes each certificate's lines in its ports' lists.
 * 60: an HTTPRoute backendRef's URLRewrite is served (refused before): in a split, the drawn Service's path and Host (rewrite and
 *     upstream-host values `<route id>|S|<backend>`); every route is derived again, and the frontend rewrites after the split's draw.
 * 61: a mirror-target's $request_uri is the path and query as sent (the frontend keeps them in txn.mirroruri before a rewrite;
 *     lua/mirror.lua reads it): the frontend and the script are written again by that write (with the settings).
 * 62: a name HTTPRoutes and GRPCRoutes alone serve falls through, when none of its routes takes a request, to the next host that
 *     would serve it (the Gateway API's hostname precedence; fall-through written, empty or not, by that write, and the frontend's
 *     rounds): every host is derived again (markLayoutChanged touches every Ingress and route).
 * 63: a route whose only mirror is a mirror-target with mirror-request-body off does not wait for the request body (the
 *     frontend's wait-for-body): the frontend is written again by that write (with the settings).
 * 64: lua/mirror.lua counts the copies it does not send, by reason, and tells HAProxy's log of them (at most once a minute per
 *     reason): the script is written again by that write (with the settings).
 * 65: a listener's own hostname keeps its requests (listener isolation): such a host is not in the fall-through map: every
 *     host is derived again (markLayoutChanged touches every Ingress and route).
 * 66: a host only HTTPS listeners serve redirects plain HTTP to HTTPS also when their certificate does not resolve or they
 *     have no hostname (their routes were served in clear): every host is derived again (markLayoutChanged).
 * 67: a rule whose backendRefs all have weight 0 is served, answering 500 (`hapedge-weightless`, a backend in the frontend's
 *     file; refused before): every route is derived again (markLayoutChanged touches them), and the frontend written again.
 * 68: an HTTPS listener's certificateRef to a Secret of another namespace is served when a ReferenceGrant there permits it
 *     (it was never served), and reported RefNotPermitted otherwise: every host and Gateway is derived again (markLayoutChanged).
 * 69: `host-ingresses` holds the Ingresses of a host more than 4 name whole (its entries were empty, not JSON): deriving such a
 *     host reads them from one range, not one object leaf per Ingress. That write sets every entry anew (indexClasses).
 * 70: a backend's use counts the hosts that route to it, not their routes, so a path added to a backend its host uses already
 *     writes no use: the uses are counted again from the hosts (BackendUses.recount) before every host is derived again.
 */
export const SNAPSHOT_LAYOUT = 70

/**
 * From this layout on every stored TLS Secret has been judged (its certificate against its key):
 * the first write of an older snapshot judges those it holds (core/commit/judge-stored-secrets.ts),
 * since a resync sends only the objects that changed.
 */
export const JUDGED_SECRETS_LAYOUT = 3

/** The key of a table that holds one value for the whole cluster (settings, default backend). */
export const CLUSTER_WIDE = 'cluster'

export type TableName = (typeof TABLE)[keyof typeof TABLE]

/** A key of a table (`table␁key`), or with a member the entry of an index (`index␁key␁member`), or the start of a key's members. */
export function treeKey(table: TableName, ...parts: string[]): string {
  return [table, ...parts].join(SEPARATOR)
}
