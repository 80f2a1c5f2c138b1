import type { Issue } from '../issues.ts'
import type { ConfigMap } from '../kube/config-map.ts'
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../kube/endpoint-slice.ts'
import { isDefaultClass, type IngressClass } from '../kube/ingress-class.ts'
import { requestedClass, type Ingress } from '../kube/ingress.ts'
import { objectKey, objectRef, type KubeObject, type ObjectRef, type ReadResult } from '../kube/objects.ts'
import type { TlsSecret } from '../kube/secret.ts'
import type { AuthSecret } from '../kube/auth-secret.ts'
import { authSecretOf } from './auth-secret-ref.ts'
import { caSecretOf } from './backend-ca.ts'
import { clientCaSecretOf } from './client-cert.ts'
import { headersConfigMapOf } from './custom-headers.ts'
import type { Service } from '../kube/service.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { serverAliasesOf } from './server-alias.ts'
import { isMergeableMaster } from './mergeable.ts'
import { SEPARATOR } from '../snapshot/separator.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { SetIndex } from '../snapshot/set-index.ts'
import type { Table } from '../snapshot/table.ts'
import { DEFAULT_OPTIONS, type ClusterOptions } from './settings.ts'
import type { Gateway } from '../kube/gateway.ts'
import type { GatewayClass } from '../kube/gateway-class.ts'
import type { GrpcRoute } from '../kube/gateway-grpc-route.ts'
import type { HttpRoute } from '../kube/gateway-http-route.ts'
import type { GatewayRoute } from './gateway-verdict.ts'
import type { ReferenceGrant } from '../kube/gateway-reference-grant.ts'
import type { Namespace } from '../kube/namespace.ts'
import { gatewayKey, indexedHostsOf, parentGatewaysOf } from './gateway-attachment.ts'
import { gatewayController } from './gateway-controller.ts'
import { http2Offered } from './http2-setting.ts'
import { servicesOfRoute } from './gateway-backend-refs.ts'
import { MissedNodes } from '../tree/missed-nodes.ts'

export interface InvalidObject {
  ref: ObjectRef
  issues: Issue[]
  requestedClass?: string
}

/** Ingresses that are not served because of the class they ask for, valid or not (neither is a rejection). */
export interface IgnoredIngresses {
  /** They ask for another class. */
  otherClass: number
  /** They ask for none, and this cluster's class is not the default IngressClass. */
  noDefaultClass: number
}

/** A requested class as an index key: any text, so the separator (and `%`, which escapes it) are escaped. */
const classKey = (requested: string) => requested.replaceAll('%', '%25').replaceAll(SEPARATOR, '%01')

/**
 * What a read object leaves at its key once applied, whatever was there before: the object, or
 * what is kept of a malformed one (undefined: nothing). A malformed ConfigMap other than the
 * settings' is no ConfigMap to read headers from: the one it replaces goes, and nothing is kept.
 */
export function storedForm(
  read: Exclude<ReadResult, { status: 'skipped' }>,
  options: Pick<ClusterOptions, 'configMap'>,
): KubeObject | InvalidObject | undefined {
  if (read.status === 'object') return read.object
  if (read.ref.kind === 'ConfigMap' && `${read.ref.namespace}/${read.ref.name}` !== options.configMap) return undefined
  const invalid: InvalidObject = { ref: read.ref, issues: read.issues }
  if (read.requestedClass !== undefined) invalid.requestedClass = read.requestedClass
  return invalid
}

/**
 * The objects of one cluster that hapedge reads, with the indexes that say which hosts and
 * backends each object feeds. It holds every Ingress whatever its class, so a class change is
 * a lookup, not a re-read. Everything lives in a keyspace: in memory for the full rebuild, or
 * over the cluster's stored snapshot, loaded key by key, for an event.
 */
export class ClusterState {
  readonly options: ClusterOptions
  private readonly objects: Table<KubeObject>
  private readonly invalidObjects: Table<InvalidObject>
  /**
   * The Ingresses under each host they name (`host␁Ingress/ns/name`): whole under a host that more
   * than WHOLE_HOST_INGRESSES name, so that deriving it reads them as one range of adjacent leaves
   * (read through the object table, a host that many namespaces share read one object leaf per
   * Ingress on it: 1.5 M characters at 100,000 objects); empty (`''`) under the others, whose
   * few Ingresses are read from the object table: most hosts have one, and a copy of it would be
   * written again at each of its changes (a quarter more bytes stored per event, a fifth more CPU per full resync).
   */
  private readonly ingressesByHost: Table<Ingress | ''>
  /** Hosts whose Ingresses came or went since settleHostIngresses: their entries' form may change. */
  private readonly unsettledHosts = new Set<string>()
  private readonly slicesByService: SetIndex
  private readonly ingressesBySecret: SetIndex
  /** Ingresses whose annotations read the Secret `namespace/name`: basic authentication's users (auth-secret-ref.ts), the backends' CA (backend-ca.ts). */
  private readonly ingressesByAuthSecret: SetIndex
  /** Ingresses whose custom-headers reads the ConfigMap `namespace/name` (custom-headers.ts): its change re-derives only them. */
  private readonly ingressesByHeadersConfigMap: SetIndex
  /** Ingresses with a `spec.defaultBackend`, and those that ask for no class, under the key `''`. */
  private readonly ingressesByDefaultBackend: SetIndex
  private readonly unclassedIngresses: SetIndex
  /** Every Ingress, valid or not, under the class it asks for (those that ask for none are not in it): counted, never listed. */
  private readonly ingressesByClass: SetIndex
  private readonly classes: Table<IngressClass>
  /** HTTPRoutes and GRPCRoutes under the hosts their listeners give them (gateway-attachment.ts), and under the Gateways their parentRefs name. */
  private readonly httpRoutesByHost: SetIndex
  private readonly httpRoutesByGateway: SetIndex
  /** HTTPRoutes under the Services (`namespace/name`) their backendRefs name: one that comes or goes changes what they answer (500 or its backend). */
  private readonly httpRoutesByService: SetIndex
  /**
   * The hosts whose HTTPRoutes were indexed or unindexed since the engine last took them: an
   * HTTPRoute's hosts depend on its Gateways, so a Gateway's change moves its routes' hosts too.
   */
  readonly touchedRouteHosts = new Set<string>()

  /**
   * `indexed: false` keeps the objects alone, without the indexes (which read every Ingress's
   * hosts, aliases and Secrets): for what a resync compares, each object's stored form, which
   * the indexes never change.
   */
  constructor(
    options: Partial<ClusterOptions> = {},
    keyspace = Keyspace.inMemory(),
    private readonly indexed = true,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options }
    this.objects = keyspace.table(TABLE.object)
    this.invalidObjects = keyspace.table(TABLE.invalid)
    this.ingressesByHost = keyspace.table(TABLE.hostIngresses)
    this.slicesByService = keyspace.index(TABLE.serviceSlices)
    this.ingressesBySecret = keyspace.index(TABLE.secretIngresses)
    this.ingressesByAuthSecret = keyspace.index(TABLE.authSecretIngresses)
    this.ingressesByHeadersConfigMap = keyspace.index(TABLE.headersConfigMapIngresses)
    this.ingressesByDefaultBackend = keyspace.index(TABLE.defaultBackendIngresses)
    this.unclassedIngresses = keyspace.index(TABLE.unclassedIngresses)
    this.ingressesByClass = keyspace.index(TABLE.classIngresses)
    this.classes = keyspace.table(TABLE.ingressClass)
    this.httpRoutesByHost = keyspace.index(TABLE.hostHttpRoutes)
    this.httpRoutesByGateway = keyspace.index(TABLE.gatewayHttpRoutes)
    this.httpRoutesByService = keyspace.index(TABLE.serviceHttpRoutes)
  }

  /** Applies a read object (or the news that it is malformed); returns what it replaced. */
  apply(read: ReadResult): KubeObject | InvalidObject | undefined {
    if (read.status === 'skipped') return undefined
    if (read.status === 'invalid') {
      const previous = this.remove(read.ref)
      const invalid = storedForm(read, this.options) as InvalidObject | undefined
      if (!invalid) return previous
      this.invalidObjects.set(objectKey(read.ref), invalid)
      if (this.indexed && read.ref.kind === 'Ingress' && read.requestedClass !== undefined)
        this.ingressesByClass.add(classKey(read.requestedClass), objectKey(read.ref))
      return previous
    }
    const key = objectKey(objectRef(read.object))
    const previous = this.removeKey(key)
    this.insert(key, read.object)
    return previous
  }

  remove(ref: ObjectRef): KubeObject | InvalidObject | undefined {
    return this.removeKey(objectKey(ref))
  }

  private removeKey(key: string): KubeObject | InvalidObject | undefined {
    const invalid = this.invalidObjects.get(key)
    if (invalid) {
      this.invalidObjects.delete(key)
      if (this.indexed && invalid.ref.kind === 'Ingress' && invalid.requestedClass !== undefined)
        this.ingressesByClass.delete(classKey(invalid.requestedClass), key)
      return invalid
    }
    const object = this.objects.get(key)
    if (!object) return undefined
    if (this.indexed && object.kind === 'Gateway') this.indexGatewayRoutes(object, true)
    this.objects.delete(key)
    if (this.indexed) this.unindex(key, object)
    return object
  }

  private unindex(key: string, object: KubeObject): void {
    if (object.kind === 'Ingress') {
      for (const host of hostsOf(object)) {
        this.ingressesByHost.delete(hostEntry(host, key))
        this.unsettledHosts.add(host)
      }
      for (const secret of secretsOf(object)) this.ingressesBySecret.delete(secret, key)
      for (const secret of annotationSecretsOf(object)) this.ingressesByAuthSecret.delete(secret, key)
      const headers = headersConfigMapOf(object)
      if (headers) this.ingressesByHeadersConfigMap.delete(headers, key)
      if (object.spec.defaultBackend) this.ingressesByDefaultBackend.delete('', key)
      const requested = requestedClass(object)
      if (requested === undefined) this.unclassedIngresses.delete('', key)
      else this.ingressesByClass.delete(classKey(requested), key)
    }
    if (object.kind === 'EndpointSlice') this.slicesByService.delete(serviceKeyOfSlice(object), key)
    if (object.kind === 'IngressClass') this.classes.delete(object.metadata.name)
    if (object.kind === 'HTTPRoute' || object.kind === 'GRPCRoute') {
      this.indexRouteHosts(key, object, false)
      for (const gateway of parentGatewaysOf(object)) this.httpRoutesByGateway.delete(gateway, key)
      for (const service of servicesOfRoute(object)) this.httpRoutesByService.delete(service, key)
    }
    if (object.kind === 'Gateway') this.indexGatewayRoutes(object, false)
  }

  /** A route's hosts added to or taken from their index, as its Gateways give them now. */
  private indexRouteHosts(key: string, route: GatewayRoute, add: boolean): void {
    for (const host of indexedHostsOf(route, (namespace, name) => this.gateway(namespace, name))) {
      if (add) this.httpRoutesByHost.add(host, key)
      else this.httpRoutesByHost.delete(host, key)
      this.touchedRouteHosts.add(host)
    }
  }

  /** Around a Gateway's change: its routes' hosts taken out before it (`before`), put back after. */
  private indexGatewayRoutes(gateway: Gateway, before: boolean): void {
    const { namespace, name } = gateway.metadata
    for (const key of this.httpRoutesByGateway.members(gatewayKey(namespace, name))) {
      const route = this.objects.get(key) as GatewayRoute
      if (before) this.indexRouteHosts(key, route, false)
      else this.indexRouteHosts(key, route, true)
    }
  }

  /** Every ConfigMap sent is kept: the settings' and those custom-headers names (the forwarder sends no other). */
  private insert(key: string, object: KubeObject): void {
    // A Gateway arriving where none was: its routes were indexed without it (removeKey re-indexed them so).
    if (this.indexed && object.kind === 'Gateway') this.indexGatewayRoutes(object, true)
    this.objects.set(key, object)
    if (!this.indexed) return
    if (object.kind === 'Gateway') this.indexGatewayRoutes(object, false)
    if (object.kind === 'HTTPRoute' || object.kind === 'GRPCRoute') this.indexRoute(key, object)
    if (object.kind === 'Ingress') {
      for (const host of hostsOf(object)) {
        this.ingressesByHost.set(hostEntry(host, key), object)
        this.unsettledHosts.add(host)
      }
      for (const secret of secretsOf(object)) this.ingressesBySecret.add(secret, key)
      for (const secret of annotationSecretsOf(object)) this.ingressesByAuthSecret.add(secret, key)
      const headers = headersConfigMapOf(object)
      if (headers) this.ingressesByHeadersConfigMap.add(headers, key)
      if (object.spec.defaultBackend) this.ingressesByDefaultBackend.add('', key)
      const requested = requestedClass(object)
      if (requested === undefined) this.unclassedIngresses.add('', key)
      else this.ingressesByClass.add(classKey(requested), key)
    }
    if (object.kind === 'EndpointSlice') this.slicesByService.add(serviceKeyOfSlice(object), key)
    if (object.kind === 'IngressClass') this.classes.set(object.metadata.name, object)
  }

  /**
   * Every host named by any Ingress (rules or TLS) or given to an HTTPRoute; `''` stands for rules without a host. A scan: for
   * the full rebuild, which passes the Ingresses' hosts it has read already (ingressesOfHosts' keys).
   */
  hosts(ingressHosts: Iterable<string> = this.ingressesByHost.keys().map((entry) => entry.slice(0, entry.indexOf(SEPARATOR)))): Iterable<string> {
    return new Set([...ingressHosts, ...this.httpRoutesByHost.keys()])
  }

  private indexRoute(key: string, route: GatewayRoute): void {
    this.indexRouteHosts(key, route, true)
    for (const gateway of parentGatewaysOf(route)) this.httpRoutesByGateway.add(gateway, key)
    for (const service of servicesOfRoute(route)) this.httpRoutesByService.add(service, key)
  }

  /** The hosts a route (HTTPRoute, GRPCRoute) is indexed under, as its Gateways give them now. */
  httpRouteHosts(route: GatewayRoute): Set<string> {
    return indexedHostsOf(route, (namespace, name) => this.gateway(namespace, name))
  }

  /** The HTTPRoutes and GRPCRoutes a listener would serve on this host (whatever their class: routeVerdict decides). */
  httpRoutesForHost(host: string): GatewayRoute[] {
    return this.lookupAll<GatewayRoute>(this.httpRoutesByHost.members(host))
  }

  /** The HTTPRoutes and GRPCRoutes whose parentRefs name the Gateway `namespace/name`. */
  httpRoutesOfGateway(namespace: string, name: string): GatewayRoute[] {
    return this.lookupAll<GatewayRoute>(this.httpRoutesByGateway.members(gatewayKey(namespace, name)))
  }

  /** The HTTPRoutes and GRPCRoutes whose backendRefs name the Service `namespace/name`. */
  httpRoutesOfService(service: string): GatewayRoute[] {
    return this.lookupAll<GatewayRoute>(this.httpRoutesByService.members(service))
  }

  /** Puts every HTTPRoute under the Services it names: a scan, once, for a snapshot made before that index was kept. */
  indexRouteServices(): void {
    for (const [key, route] of this.objects.entries('HTTPRoute/'))
      for (const service of servicesOfRoute(route as HttpRoute)) this.httpRoutesByService.add(service, key)
  }

  /** The HTTPRoutes and GRPCRoutes of one namespace (ranges of the objects: a ReferenceGrant's change reads them). */
  httpRoutesInNamespace(namespace: string): GatewayRoute[] {
    return [`HTTPRoute/${namespace}/`, `GRPCRoute/${namespace}/`].flatMap((prefix) =>
      [...this.objects.entries(prefix)].map(([, route]) => route as GatewayRoute),
    )
  }

  /** Every HTTPRoute (a scan: for a change of the Gateway controller setting). */
  httpRoutes(): HttpRoute[] {
    return [...this.objects.entries('HTTPRoute/')].map(([, route]) => route as HttpRoute)
  }

  /** Every GRPCRoute (a scan: for a change of the Gateway controller setting and the full rebuild). */
  grpcRoutes(): GrpcRoute[] {
    return [...this.objects.entries('GRPCRoute/')].map(([, route]) => route as GrpcRoute)
  }

  /** Every Gateway (a scan of the few a cluster has: for a GatewayClass's change and the full rebuild). */
  gateways(): Gateway[] {
    return [...this.objects.entries('Gateway/')].map(([, gateway]) => gateway as Gateway)
  }

  /** Every GatewayClass (a scan of the few a cluster has: for the Gateway API's status). */
  gatewayClasses(): GatewayClass[] {
    return [...this.objects.entries('GatewayClass/')].map(([, gatewayClass]) => gatewayClass as GatewayClass)
  }

  gateway(namespace: string, name: string): Gateway | undefined {
    return this.objects.get(`Gateway/${namespace}/${name}`) as Gateway | undefined
  }

  /** A Namespace (its name and labels: a Gateway listener's allowedRoutes Selector reads them). */
  namespace(name: string): Namespace | undefined {
    return this.objects.get(`Namespace/${name}`) as Namespace | undefined
  }

  /** Whether the HTTPS bind offers HTTP/2 (settings `use-http2`): without it, GRPCRoutes are not served there (gateway-listeners.ts). */
  http2Offered(): boolean {
    return http2Offered(this.configMap())
  }

  /** Whether this cluster serves the GatewayClass: its controllerName is the `gateway-controller` setting. */
  servesGatewayClass(name: string): boolean {
    const gatewayClass = this.objects.get(`GatewayClass/${name}`) as GatewayClass | undefined
    return gatewayClass !== undefined && gatewayClass.spec.controllerName === gatewayController(this.configMap())
  }

  /** The ReferenceGrants of a namespace (a range of the objects). */
  referenceGrants(namespace: string): ReferenceGrant[] {
    return [...this.objects.entries(`ReferenceGrant/${namespace}/`)].map(([, grant]) => grant as ReferenceGrant)
  }

  /** The Ingresses that name the host: from its range of the host table, or the object table for a host few name. */
  ingressesForHost(host: string): Ingress[] {
    const missed = new MissedNodes()
    const found: Ingress[] = []
    for (const entry of this.ingressesByHost.keys(hostEntry(host, 'Ingress/'))) found.push(this.heldIngress(entry, missed))
    missed.check()
    return found
  }

  /**
   * Every host's Ingresses, each host's as ingressesForHost gives them, from one scan of the host
   * table in key order (a host's entries are neighbours): the full rebuild's, for which reading each
   * host's range made a key, a lookup and a sort per host.
   */
  ingressesOfHosts(): Map<string, Ingress[]> {
    const missed = new MissedNodes()
    const byHost = new Map<string, Ingress[]>()
    let host = ''
    let found: Ingress[] | undefined
    for (const entry of this.ingressesByHost.keys()) {
      const end = entry.indexOf(SEPARATOR)
      if (found === undefined || end !== host.length || !entry.startsWith(host)) {
        host = entry.slice(0, end)
        byHost.set(host, (found = []))
      }
      found.push(this.heldIngress(entry, missed))
    }
    missed.check()
    return byHost
  }

  /** The Ingress of a host table entry: held there (a host many name), or read from the object table (`''`: a host few name), its misses noted in `missed`. */
  private heldIngress(entry: string, missed: MissedNodes): Ingress {
    const held = this.ingressesByHost.get(entry) as Ingress | ''
    return held === '' ? (missed.attempt(() => this.objects.get(objectKeyOf(entry))) as Ingress) : held
  }

  /**
   * Gives the entries of the hosts whose Ingresses came or went the form their number asks for
   * (ingressesByHost): once the changes are applied, so that a commit's snapshot is the one its
   * objects give, whatever the order of its events. A host's change of form reads at most
   * WHOLE_HOST_INGRESSES Ingresses of the object table.
   */
  settleHostIngresses(): void {
    for (const host of this.unsettledHosts) {
      const entries = this.ingressesByHost.keys(hostEntry(host, 'Ingress/'))
      const whole = entries.length > WHOLE_HOST_INGRESSES
      const missed = new MissedNodes()
      for (const entry of entries) {
        const held = this.ingressesByHost.get(entry)
        if (!whole && held !== '') this.ingressesByHost.set(entry, '')
        if (whole && held === '') missed.attempt(() => this.ingressesByHost.set(entry, this.objects.get(objectKeyOf(entry)) as Ingress))
      }
      missed.check()
    }
    this.unsettledHosts.clear()
  }

  /** Ingresses whose TLS entries name the Secret `namespace/name`. */
  ingressesForSecret(secret: string): Ingress[] {
    return this.lookupAll<Ingress>(this.ingressesBySecret.members(secret))
  }

  /** Ingresses whose annotations read the Secret `namespace/name` (basic authentication's users, the backends' CA). */
  ingressesForAuthSecret(secret: string): Ingress[] {
    return this.lookupAll<Ingress>(this.ingressesByAuthSecret.members(secret))
  }

  /** Ingresses whose custom-headers reads the ConfigMap `namespace/name`. */
  ingressesForHeadersConfigMap(configMap: string): Ingress[] {
    return this.lookupAll<Ingress>(this.ingressesByHeadersConfigMap.members(configMap))
  }

  /** Ingresses that ask for no class: the default IngressClass decides whether they are served. */
  ingressesWithoutClass(): Ingress[] {
    return this.lookupAll<Ingress>(this.unclassedIngresses.members(''))
  }

  get(ref: ObjectRef): KubeObject | InvalidObject | undefined {
    const key = objectKey(ref)
    return this.objects.get(key) ?? this.invalidObjects.get(key)
  }

  ingressesWithDefaultBackend(): Ingress[] {
    return this.lookupAll<Ingress>(this.ingressesByDefaultBackend.members(''))
  }

  service(namespace: string, name: string): Service | undefined {
    return this.objects.get(`Service/${namespace}/${name}`) as Service | undefined
  }

  endpointSlices(namespace: string, service: string): EndpointSlice[] {
    return this.lookupAll<EndpointSlice>(this.slicesByService.members(`${namespace}/${service}`))
  }

  secret(namespace: string, name: string): TlsSecret | AuthSecret | InvalidObject | undefined {
    const key = `Secret/${namespace}/${name}`
    return (this.objects.get(key) as TlsSecret | AuthSecret | undefined) ?? this.invalidObjects.get(key)
  }

  configMap(): ConfigMap | undefined {
    return this.objects.get(`ConfigMap/${this.options.configMap}`) as ConfigMap | undefined
  }

  /** A ConfigMap custom-headers may read (any valid one the cluster sent). */
  headersConfigMap(namespace: string, name: string): ConfigMap | undefined {
    return this.objects.get(`ConfigMap/${namespace}/${name}`) as ConfigMap | undefined
  }

  /** Every valid Ingress, whatever its class (a scan: for the full rebuild, option and layout changes). */
  ingresses(): Ingress[] {
    return [...this.objects.entries('Ingress/')].map(([, ingress]) => ingress as Ingress)
  }

  /** Every Service (a scan: for the full rebuild and option changes). */
  services(): Service[] {
    return [...this.objects.entries('Service/')].map(([, service]) => service as Service)
  }

  /**
   * Forgets the malformed ConfigMaps kept under another name than the configured one (after the
   * option changed), as if they had never been read; returns them. A valid one stays: any
   * ConfigMap may be one custom-headers reads. The newly named one is read when it next arrives
   * (a change of it, or a resync).
   */
  dropOtherConfigMaps(): ObjectRef[] {
    const dropped: ObjectRef[] = []
    for (const [key, invalid] of this.invalidObjects.entries('ConfigMap/')) {
      if (key === `ConfigMap/${this.options.configMap}`) continue
      this.invalidObjects.delete(key)
      dropped.push(invalid.ref)
    }
    return dropped
  }

  ingressClasses(): Iterable<IngressClass> {
    return [...this.classes.entries()].map(([, ingressClass]) => ingressClass)
  }

  /** Every malformed object (a scan: for the full rebuild and class changes). */
  invalid(): Iterable<InvalidObject> {
    return [...this.invalidObjects.entries()].map(([, invalid]) => invalid)
  }

  /** Whether an Ingress asking for `requested` (undefined: no class) is served by this cluster's class. */
  servesClass(requested: string | undefined): boolean {
    if (requested !== undefined) return requested === this.options.ingressClass
    const ours = this.classes.get(this.options.ingressClass)
    return ours !== undefined && isDefaultClass(ours)
  }

  serves(ingress: Ingress): boolean {
    return this.servesClass(requestedClass(ingress))
  }

  /**
   * The Ingresses not served because of their class, counted from the indexes' rows along the
   * ranges' edges, so at any cluster size it reads a few nodes: those that ask for a class,
   * less ours; and, unless our class is the default, those that ask for none.
   */
  ignoredByClass(): IgnoredIngresses {
    const ingresses = this.objects.count('Ingress/') + this.invalidObjects.count('Ingress/')
    const classed = this.ingressesByClass.count()
    return {
      otherClass: classed - this.ingressesByClass.count(classKey(this.options.ingressClass)),
      noDefaultClass: this.servesClass(undefined) ? 0 : ingresses - classed,
    }
  }

  /** The snapshot keys whose paths `ignoredByClass` reads: loaded together first, a round trip per tree level instead of one per node. */
  ignoredByClassReads(): string[] {
    return [
      ...this.objects.countEdges('Ingress/'),
      ...this.invalidObjects.countEdges('Ingress/'),
      ...this.ingressesByClass.countEdges(),
      ...this.ingressesByClass.countEdges(classKey(this.options.ingressClass)),
      treeKey(TABLE.ingressClass, this.options.ingressClass),
    ]
  }

  /**
   * Puts every Ingress under the class it asks for, its hosts (69: whole under a host many name), its auth Secret
   * and its headers' ConfigMap, and every GRPCRoute under its hosts and Gateways: a scan, once, for a snapshot made before
   * those indexes were kept. The host table is written anew: an entry of an older layout no Ingress gives now goes.
   */
  indexClasses(): void {
    for (const entry of this.ingressesByHost.keys()) this.ingressesByHost.delete(entry)
    for (const [key, object] of this.objects.entries('Ingress/')) {
      const requested = requestedClass(object as Ingress)
      if (requested !== undefined) this.ingressesByClass.add(classKey(requested), key)
      for (const host of hostsOf(object as Ingress)) {
        this.ingressesByHost.set(hostEntry(host, key), object as Ingress)
        this.unsettledHosts.add(host)
      }
      for (const secret of annotationSecretsOf(object as Ingress)) this.ingressesByAuthSecret.add(secret, key)
      const headers = headersConfigMapOf(object as Ingress)
      if (headers) this.ingressesByHeadersConfigMap.add(headers, key)
    }
    // Before layout 39 GRPCRoutes were not served, so not indexed.
    for (const [key, route] of this.objects.entries('GRPCRoute/')) this.indexRoute(key, route as GrpcRoute)
    for (const [key, invalid] of this.invalidObjects.entries('Ingress/')) {
      if (invalid.requestedClass !== undefined) this.ingressesByClass.add(classKey(invalid.requestedClass), key)
    }
  }

  /** Puts every HTTPRoute and GRPCRoute under the hosts its Gateways give it now: a scan, once, for a snapshot whose index left out what a newer layout attaches (46: Selector listeners). */
  indexEveryRouteHosts(): void {
    for (const prefix of ['HTTPRoute/', 'GRPCRoute/'])
      for (const [key, route] of this.objects.entries(prefix)) this.indexRouteHosts(key, route as GatewayRoute, true)
  }

  /** The objects at these keys, read apart: what they miss is named together (a shared host's Ingresses were a round each). */
  private lookupAll<T extends KubeObject>(keys: Iterable<string>): T[] {
    const missed = new MissedNodes()
    const found: T[] = []
    for (const key of keys) found.push(missed.attempt(() => this.objects.get(key)) as T)
    missed.check()
    return found
  }
}

/** A host named by more Ingresses than this holds them whole in the host table (ingressesByHost). */
export const WHOLE_HOST_INGRESSES = 4

/** An Ingress's entry under one of its hosts in the host table (joined flat, as objectKey is: it is kept as long as the Ingress), and the object key in it. */
const hostEntry = (host: string, key: string) => [host, key].join(SEPARATOR)
const objectKeyOf = (entry: string) => entry.slice(entry.indexOf(SEPARATOR) + 1)

/** The hosts an Ingress names in its rules (`''` for a rule without host), its TLS entries and its server-alias annotation. */
export function hostsOf(ingress: Ingress): Set<string> {
  const hosts = new Set<string>()
  // A mergeable master names its host without paths (mergeable.ts); any other rule without paths serves nothing.
  const master = isMergeableMaster(ingress)
  for (const rule of ingress.spec.rules ?? []) if (rule.http || master) hosts.add(rule.host ?? '')
  for (const tls of ingress.spec.tls ?? []) for (const host of tls.hosts ?? []) hosts.add(host)
  for (const alias of serverAliasesOf(ingress)) hosts.add(alias)
  return hosts
}

/** The Secrets (`namespace/name`) an Ingress's TLS entries name. */
export function secretsOf(ingress: Ingress): Set<string> {
  const secrets = new Set<string>()
  for (const tls of ingress.spec.tls ?? []) if (tls.secretName) secrets.add(`${ingress.metadata.namespace}/${tls.secretName}`)
  return secrets
}

export function serviceKeyOfSlice(slice: EndpointSlice): string {
  return `${slice.metadata.namespace}/${slice.metadata.labels[SERVICE_NAME_LABEL]}`
}

/** The Secrets an Ingress's annotations read (`namespace/name`): its users for basic authentication, its backends' and its clients' CA bundles. */
function annotationSecretsOf(ingress: Ingress): Set<string> {
  const secrets = new Set<string>()
  for (const secret of [authSecretOf(ingress), caSecretOf(ingress), clientCaSecretOf(ingress)]) if (secret) secrets.add(secret)
  return secrets
}
