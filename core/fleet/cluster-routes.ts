import type { Backend, Server } from '../model/derive-backend.ts'
import type { HostConfig } from '../model/derive-host.ts'
import type { Match } from '../model/routes.ts'
import { SEPARATOR } from '../snapshot/separator.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/** One route as HAProxy's maps serve it: `''` is the host of rules that name none. */
export interface ServedRoute {
  host: string
  match: Match
  path: string
  /** The backend's name in the configuration (`namespace_service_port`), and what it points at. */
  backend: string
  service: { namespace: string; name: string; port: number | string }
  /** Ready endpoints; none means HAProxy answers 503 on this route. */
  servers: Server[]
  /** The Ingress that owns the route. */
  owner: string
  /** The TLS Secret whose certificate the host gets by SNI, and whether plain HTTP is redirected. */
  tlsSecret: string | null
  redirectToHttps: boolean
}

export interface RoutesPage {
  routes: ServedRoute[]
  /** Where the next page starts (`after`), or null on the last. */
  next: string | null
  /** On the first page: the backend of requests no rule matches (null: HAProxy answers 404). */
  defaultBackend?: { backend: string; servers: Server[] } | null
}

export interface RoutesQuery {
  /** One host only (`''`: the rules without a host). */
  host?: string
  /** Hosts after this one, as a previous page's `next` says. */
  after?: string
  /** Routes per page; a host's routes are never split across pages, so a page may hold more. */
  limit: number
}

/**
 * What a snapshot serves, host by host in byte order, read from its host and backend tables:
 * a page costs the nodes of its hosts and their backends, whatever the cluster's size.
 */
export function clusterRoutes(snapshot: Tree, query: RoutesQuery): RoutesPage {
  const hostTable = `${TABLE.host}${SEPARATOR}`
  const backends = new Map<string, Backend | undefined>()
  const backendOf = (name: string) => {
    if (!backends.has(name)) backends.set(name, parse<Backend>(snapshot.get(treeKey(TABLE.backend, name))))
    return backends.get(name)
  }
  const from = query.host !== undefined ? hostTable + query.host : query.after !== undefined ? `${hostTable}${query.after}\u0000` : hostTable
  const to = query.host !== undefined ? `${hostTable}${query.host}\u0000` : `${hostTable}\uffff`
  const routes: ServedRoute[] = []
  let last: string | undefined
  let more = false
  for (const entry of snapshot.scan(from, to)) {
    if (routes.length >= query.limit) {
      more = true
      break
    }
    const config = JSON.parse(entry.value) as HostConfig
    last = config.host
    for (const route of config.routes) {
      routes.push({
        host: config.host,
        match: route.match,
        path: route.path,
        backend: route.backendName,
        service: { namespace: route.backend.namespace, name: route.backend.service, port: route.backend.port },
        servers: backendOf(route.backendName)?.servers ?? [],
        owner: route.owner,
        tlsSecret: config.tlsSecret ?? null,
        redirectToHttps: config.redirectToHttps,
      })
    }
  }
  const page: RoutesPage = { routes, next: more && last !== undefined ? last : null }
  if (query.after === undefined) {
    const fallback = parse<{ name?: string }>(snapshot.get(treeKey(TABLE.defaultBackend, CLUSTER_WIDE)))?.name
    page.defaultBackend = fallback ? { backend: fallback, servers: backendOf(fallback)?.servers ?? [] } : null
  }
  return page
}

const parse = <T>(text: string | undefined): T | undefined => (text === undefined ? undefined : (JSON.parse(text) as T))
