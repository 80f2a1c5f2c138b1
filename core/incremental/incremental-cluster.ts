import { FileSet, type Created } from '../generation/file-set.ts'
import { keptWhenEmpty } from '../generation/file-shapes.ts'
import { recordOf, type Generation } from '../generation/generation.ts'
import { MANIFEST_SHAPE } from '../generation/manifest.ts'
import { objectKey, objectRef, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import { ClusterState, hostsOf, serviceKeyOfSlice, type InvalidObject } from '../model/cluster-state.ts'
import { deriveSettings, rejectionOfObject, warningsOfObject } from '../model/derive-cluster.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import type { Backend } from '../model/derive-backend.ts'
import type { Rejection } from '../model/rejection.ts'
import { canonicalOptions, type ClusterOptions, proxyProtocolSources, type Settings } from '../model/settings.ts'
import { CHUNKED_FILES, FILES, portCrtList } from '../render/files.ts'
import { renderFrontend } from '../render/render-frontend.ts'
import { renderGlobal } from '../render/render-global.ts'
import { SHIPPED_LUA } from '../render/shipped-lua.ts'
import { Keyspace, SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import { derivedUnderOther, olderLayout, type ClusterWide } from './cluster-wide.ts'
import { HOST_SETTINGS } from '../model/host-redirects.ts'
import { CLUSTER_WIDE, SNAPSHOT_LAYOUT, TABLE } from '../snapshot/tables.ts'
import type { Table } from '../snapshot/table.ts'
import { MissingNodes, type NewNode } from '../tree/node.ts'
import { MissedNodes } from '../tree/missed-nodes.ts'
import { unloadedOnPaths } from '../tree/unloaded-paths.ts'
import { Tree, type TreeContext } from '../tree/tree.ts'
import { runToEnd } from '../slices.ts'
import { DirtySet } from './dirty-set.ts'
import { BackendUses, reconcileBackend, reconcileCaFile, reconcileDefaultBackend, type DefaultBackendEntry } from './reconcile-backends.ts'
import { reconcileCertificate, reconcileDefaultCertificate, reconcileTlsListeners } from './reconcile-certificates.ts'
import { gatewayNamesSecret, gatewayNamesSecretIn } from '../model/gateway-listeners.ts'
import { crtListsOf, defaultCertificateFile } from '../render/render-tls.ts'
import { reconcileHost, type HostTables } from './reconcile-hosts.ts'
import { routesBackends } from '../model/route-backends.ts'
import { REFUSED_BACKEND } from '../model/backend-ref.ts'
import { reconcileAccessGroup, reconcileTrustedProxies } from './reconcile-access.ts'
import { authRules, USERLISTS_FILE, userlistsFile } from '../render/render-auth.ts'
import { limitExemptRules } from '../render/render-limits.ts'
import type { AccessGroup } from '../model/access-group.ts'
import { trustedProxies } from '../model/access-group.ts'
import { emptyPlan, needReload, type Plan } from '../plan/plan.ts'
import { reconcileHeaderRules } from './reconcile-headers.ts'
import { distinctRules, recountRuleUses, type RuleTables } from './reconcile-frontend-rules.ts'
import { reconcileCanaryRules } from './reconcile-canary.ts'
import { unionOfCanaryRules } from '../model/canary.ts'
import { unionOfRules } from '../model/route-headers.ts'
import { recordVersion, type SeenVersion } from './resource-version.ts'
import { changedRef, objectChange, type WatchEvent } from './watch-event.ts'
import { GATEWAY_SETTINGS, touchEveryGateway, touchGatewayChange, touchGatewaysOfSecret } from './gateway-changes.ts'
import { reconcileGatewayStatus, type GatewayStatusTables } from './reconcile-gateway-status.ts'
import { withHostsOnPorts } from '../model/gateway-ports.ts'

/** A committed state of a cluster: its model snapshot and its generation's manifest. */
export interface ClusterTrees {
  snapshot: Tree
  manifest: Tree
}

export interface ApplyResult {
  /** Paths of the files whose content changed. */
  files: Set<string>
  plan: Plan
}

export interface Applied extends ApplyResult {
  snapshot: Tree
  generation: Generation
  /** What this change made, which a commit writes before it moves HEAD: snapshot nodes, file content, file metadata. */
  created: { snapshot: NewNode[] } & Created
  /** Events dropped as repeats of what was last applied to their object (the same resourceVersion). */
  stale: number
}

/**
 * One change to a cluster, from a committed state: events mark what they touch (hosts,
 * Services, Secrets, the default backend, settings); only those are derived again, and only the
 * entries whose text changed are set in the files. Every read goes to the snapshot and the
 * manifest key by key, so a change costs what it touches at any cluster size, and it is pure:
 * a read of a node not loaded yet throws MissingNodes, and the caller loads it and runs the
 * change again. The result equals a full rebuild from the same objects, byte for byte (the
 * property tests hold the two paths against each other).
 */
export class IncrementalCluster {
  readonly state: ClusterState
  private readonly keyspace: Keyspace
  private readonly files: FileSet
  private readonly dirty = new DirtySet()
  /** What this run's events, hosts, backends and Secrets missed: each goes on after a miss, and the run ends naming them all. */
  private readonly missed = new MissedNodes()
  private readonly genesis: boolean
  private settings: Settings
  /** The Secret served as the default certificate, and the served HTTPS listeners' hostnames, as the snapshot holds them (ClusterWide). */
  private defaultCertificate: string | undefined
  private tlsListeners: readonly string[]
  /** Whether the snapshot was derived under other options than this change's (or does not say: it predates their recording). */
  private readonly optionsChanged: boolean
  /** The gatewayPorts the snapshot was derived under: their hosts are derived again when the options change (gateway-ports.ts). */
  private readonly formerPorts: Pick<ClusterOptions, 'gatewayPorts'>
  /** Whether the snapshot lacks indexes this code keeps (it was written by an earlier version). */
  private readonly layoutChanged: boolean
  private readonly settingsTable: Table<ClusterWide>
  private readonly hostTables: HostTables
  private readonly backends: Table<Backend>
  private readonly backendUses: BackendUses
  private readonly defaultBackend: Table<DefaultBackendEntry>
  private readonly objectRejections: Table<Rejection>
  private readonly ingressWarnings: Table<AnnotationWarning[]>
  private readonly versions: Table<SeenVersion>
  private readonly accessGroups: Table<AccessGroup>
  private readonly headerRules: RuleTables
  private readonly canaryRules: RuleTables
  private readonly gatewayStatus: GatewayStatusTables
  private stale = 0

  constructor(
    base: ClusterTrees | undefined,
    options: Partial<ClusterOptions>,
    private readonly context: TreeContext,
  ) {
    this.keyspace = new Keyspace(base?.snapshot ?? Tree.empty(SNAPSHOT_SHAPE, context).tree)
    this.files = new FileSet(base?.manifest ?? Tree.empty(MANIFEST_SHAPE, context).tree, context)
    this.state = new ClusterState(options, this.keyspace)
    this.settingsTable = this.keyspace.table(TABLE.settings)
    this.hostTables = {
      hosts: this.keyspace.table(TABLE.host),
      rejections: this.keyspace.table(TABLE.hostRejections),
      bySecret: this.keyspace.index(TABLE.secretHosts),
    }
    this.backends = this.keyspace.table(TABLE.backend)
    this.backendUses = new BackendUses(
      this.keyspace.table(TABLE.backendUse),
      this.keyspace.index(TABLE.serviceBackends),
      this.keyspace.index(TABLE.caFileBackends),
    )
    this.defaultBackend = this.keyspace.table(TABLE.defaultBackend)
    this.objectRejections = this.keyspace.table(TABLE.objectRejection)
    this.ingressWarnings = this.keyspace.table(TABLE.ingressWarnings)
    this.versions = this.keyspace.table(TABLE.resourceVersion)
    this.accessGroups = this.keyspace.table(TABLE.accessGroup)
    this.headerRules = { byObject: this.keyspace.table(TABLE.headerRules), uses: this.keyspace.table(TABLE.headerRuleUses) }
    this.canaryRules = { byObject: this.keyspace.table(TABLE.canaryRules), uses: this.keyspace.table(TABLE.canaryRuleUses) }
    this.gatewayStatus = {
      statuses: this.keyspace.table(TABLE.gatewayStatus),
      reads: this.keyspace.table(TABLE.routeStatusReads),
      listenerRoutes: this.keyspace.index(TABLE.listenerRoutes),
    }
    const stored = this.settingsTable.get(CLUSTER_WIDE)
    this.genesis = stored === undefined
    this.optionsChanged = stored !== undefined && derivedUnderOther(stored, this.state.options)
    this.formerPorts = { gatewayPorts: stored?.options?.gatewayPorts }
    this.layoutChanged = stored !== undefined && olderLayout(stored)
    this.settings = stored?.settings ?? deriveSettings(this.state).settings
    // A snapshot before layout 40 served only the settings' default certificate.
    this.defaultCertificate = stored?.defaultCertificate ?? (stored && olderLayout(stored) ? stored.settings['default-ssl-certificate'] : undefined)
    this.tlsListeners = stored?.tlsListeners ?? []
  }

  apply(events: Iterable<WatchEvent>): this {
    for (const event of events) this.missed.attempt(() => this.applyEvent(event))
    return this
  }

  /** Derives what the events touched and writes the new snapshot and generation. */
  finish(): Applied {
    return runToEnd(this.finishing())
  }

  /**
   * `apply(events).finish()` as steps: it yields after each event and each host, backend or
   * certificate it derives, so a long change (a resync's commit) can let other work run between
   * slices of it (runInSlices). Its result is the same.
   */
  *steps(events: Iterable<WatchEvent>): Generator<void, Applied> {
    for (const event of events) {
      this.missed.attempt(() => this.applyEvent(event))
      yield
    }
    return yield* this.finishing()
  }

  private *finishing(): Generator<void, Applied> {
    try {
      return yield* this.finishingAll()
    } catch (error) {
      throw this.missed.joined(error)
    }
  }

  private *finishingAll(): Generator<void, Applied> {
    const plan = yield* this.reconcile()
    this.missed.check()
    const edits = yield* this.keyspace.collecting()
    // What the snapshot's and every file's edits lack, named together: a round of loads for all the trees, not one per tree.
    const unloaded = this.files.unloadedOnPaths(unloadedOnPaths(this.keyspace.base, [...edits.keys()].sort()))
    if (unloaded.size > 0) throw new MissingNodes([...unloaded.values()])
    const snapshot = yield* this.keyspace.base.editing(edits, true)
    const files = yield* this.files.finishing(true)
    const record = recordOf(files.manifest, this.context)
    const metadata = [...files.created.metadata, { space: MANIFEST_SHAPE.space, sha256: record.sha256, text: record.text, level: 0 }]
    const created = { snapshot: snapshot.created, content: files.created.content, metadata }
    const generation = { manifest: files.manifest, record, created: [...created.content, ...metadata] }
    return { files: files.changed, plan, snapshot: snapshot.tree, generation, created, stale: this.stale }
  }

  private applyEvent(event: WatchEvent): void {
    const change = objectChange(event)
    if ('ignore' in change) return
    const ref = changedRef(change)
    if (!recordVersion(this.versions, objectKey(ref), event)) {
      this.stale++
      return
    }
    const servedWithoutClass = this.state.servesClass(undefined)
    const previous = 'remove' in change ? this.state.remove(ref) : this.state.apply(change.put)
    const current = this.state.get(ref)
    const { dirty } = this
    dirty.objects.push(ref)
    for (const object of [previous, current]) if (object) this.markTouched(object)
    if (ref.kind === 'Secret') {
      const secret = `${ref.namespace}/${ref.name}`
      dirty.secrets.add(secret)
      // The default certificate's Secret (its file, and the settings' report on it), or one a Gateway's listener may make it.
      if (
        secret === this.defaultCertificate ||
        secret === this.settings['default-ssl-certificate'] ||
        this.state.gateways().some((gateway) => gatewayNamesSecret(gateway, secret))
      )
        dirty.settings = true
    }
    if (ref.kind === 'ConfigMap') {
      // The settings' own, and (any, the settings' too) one custom-headers may name: only the Ingresses naming it are derived again.
      const configMap = `${ref.namespace}/${ref.name}`
      if (configMap === this.state.options.configMap) dirty.settings = true
      dirty.configMaps.add(configMap)
    }
    // A Gateway's HTTPS listeners give the default certificate and the misdirected-request map (gateway-tls.ts), a ReferenceGrant whether one of another namespace is served.
    if (ref.kind === 'Gateway' || ref.kind === 'GatewayClass') dirty.settings = true
    if (ref.kind === 'ReferenceGrant' && this.state.gateways().some((gateway) => gatewayNamesSecretIn(gateway, ref.namespace!))) dirty.settings = true
    if (ref.kind === 'IngressClass' && servedWithoutClass !== this.state.servesClass(undefined)) dirty.ingressClass = true
    touchGatewayChange(this.state, ref, previous, current, dirty)
  }

  private markTouched(object: KubeObject | InvalidObject): void {
    if ('issues' in object) return
    if (object.kind === 'Ingress') {
      for (const host of hostsOf(object)) this.dirty.hosts.add(host)
      if (object.spec.defaultBackend) this.dirty.defaultBackend = true
    }
    if (object.kind === 'Service') this.dirty.services.add(`${object.metadata.namespace}/${object.metadata.name}`)
    if (object.kind === 'EndpointSlice') this.dirty.services.add(serviceKeyOfSlice(object))
  }

  private *reconcile(): Generator<void, Plan> {
    const { dirty } = this
    const plan = emptyPlan()
    if (this.genesis) {
      dirty.settings = true
      dirty.defaultBackend = true
    }
    // A new cluster's maps, and those an older layout did not have, are written even empty: HAProxy loads them by path.
    if (this.genesis || this.layoutChanged) for (const path of CHUNKED_FILES.keys()) if (keptWhenEmpty(path)) this.files.ensure(path)
    if (this.optionsChanged) this.markOptionsChanged()
    if (this.layoutChanged) this.markLayoutChanged()
    // Before any host is derived: the host table's entries take the form their hosts' Ingresses' number asks for.
    this.missed.attempt(() => this.state.settleHostIngresses())
    if (dirty.settings) {
      this.reconcileSettings(plan)
      reconcileTrustedProxies(this.settings, this.files, plan)
    }
    if (dirty.ingressClass) {
      for (const ingress of this.state.ingressesWithoutClass()) {
        for (const host of hostsOf(ingress)) dirty.hosts.add(host)
        dirty.objects.push(objectRef(ingress))
      }
      dirty.defaultBackend = true
      for (const invalid of this.state.invalid()) dirty.objects.push(invalid.ref)
    }
    const { missed } = this
    for (const secret of dirty.secrets)
      missed.attempt(() => {
        touchGatewaysOfSecret(this.state, secret, dirty)
        // An auth Secret's Ingresses: their routes may be refused or served again, their userlist changed.
        for (const ingress of this.state.ingressesForAuthSecret(secret)) {
          for (const host of hostsOf(ingress)) dirty.hosts.add(host)
          if (ingress.spec.defaultBackend) dirty.defaultBackend = true
          dirty.objects.push(objectRef(ingress))
        }
        for (const ingress of this.state.ingressesForSecret(secret)) {
          for (const tls of ingress.spec.tls ?? [])
            if (`${ingress.metadata.namespace}/${tls.secretName}` === secret) for (const host of tls.hosts ?? []) dirty.hosts.add(host)
        }
      })
    // A custom-headers ConfigMap's Ingresses: their header values, rules and warnings.
    for (const configMap of dirty.configMaps)
      missed.attempt(() => {
        for (const ingress of this.state.ingressesForHeadersConfigMap(configMap)) {
          for (const host of hostsOf(ingress)) dirty.hosts.add(host)
          dirty.objects.push(objectRef(ingress))
        }
      })
    for (const ref of dirty.objects) {
      missed.attempt(() => {
        this.reconcileObjectRejection(ref)
        reconcileAccessGroup(ref, this.state, this.accessGroups, this.files, plan)
        reconcileHeaderRules(ref, this.state, this.headerRules, plan)
        reconcileCanaryRules(ref, this.state, this.canaryRules, plan)
      })
      yield
    }
    reconcileGatewayStatus(this.state, dirty, this.gatewayStatus)

    const { state, files, backendUses } = this
    const touchedSecrets = new Set(dirty.secrets)
    const formerCas = new Map<string, Set<string>>()
    for (const host of withHostsOnPorts(dirty.hosts, state.options)) {
      missed.attempt(() => reconcileHost(host, state, this.settings, this.hostTables, backendUses, files, touchedSecrets, formerCas, plan))
      yield
    }
    if (dirty.defaultBackend) reconcileDefaultBackend(state, this.defaultBackend, backendUses, files, plan)
    for (const service of dirty.services) backendUses.touchService(service)
    for (const name of backendUses.touched) {
      missed.attempt(() => reconcileBackend(name, state, this.backends, backendUses, files, plan))
      yield
    }
    for (const secret of dirty.secrets) backendUses.touchSecret(secret)
    for (const path of backendUses.touchedCaFiles) reconcileCaFile(path, state, backendUses, files, plan)
    // Every crt-list a line may be in: the HTTPS bind's, and each HTTPS port of its own's, now and before the options changed.
    const lists = [...new Set([...crtListsOf(state.options.gatewayPorts), ...crtListsOf(this.formerPorts.gatewayPorts)])]
    for (const secret of touchedSecrets) {
      missed.attempt(() => reconcileCertificate(secret, state, this.hostTables, formerCas.get(secret) ?? new Set(), lists, files, plan))
      yield
    }
    // The userlists, from the same scan: HAProxy 2.6 reads them only at a reload, whose reason reconcile-access.ts gave (which Secret, which Ingress).
    this.files.setText(USERLISTS_FILE, userlistsFile([...this.accessGroups.entries()].map(([, group]) => group)))
    if (this.files.setText(FILES.frontend, this.renderFrontend()))
      needReload(
        plan,
        this.layoutChanged
          ? 'the frontend changed: this version of hapedge renders it with rules the stored generation lacks'
          : 'the frontend changed (HTTPS bind, Gateway ports of their own, trusted proxies, source ranges or header names added or removed, or rules of a newer hapedge)',
      )
    return plan
  }

  /**
   * The snapshot was derived under other options (the cluster's settings changed): everything
   * they feed is derived again, as a full rebuild under the new ones would (a scan of the
   * snapshot, once per change of options). The class decides which Ingresses are served, so
   * every host, the default backend and the malformed objects' reports; the snippet policy every
   * backend and Service report; the ConfigMap's name the settings (one stored under the old name
   * is forgotten); the binds the frontend, which every change renders.
   */
  private markOptionsChanged(): void {
    const { dirty, state } = this
    dirty.settings = true
    dirty.defaultBackend = true
    // Each name on the ports of their own it was served on: those no longer among the options are derived as gone.
    for (const host of withHostsOnPorts(state.hosts(), this.formerPorts)) dirty.hosts.add(host)
    for (const object of [...state.invalid(), ...state.services(), ...state.ingresses(), ...state.gateways(), ...state.httpRoutes(), ...state.grpcRoutes()])
      dirty.objects.push('issues' in object ? object.ref : objectRef(object))
    dirty.objects.push(...state.dropOtherConfigMaps())
    for (const service of this.backendUses.services()) dirty.services.add(service)
  }

  /**
   * The snapshot lacks what this code keeps (SNAPSHOT_LAYOUT): the index of Ingresses by class is
   * built, and every Ingress's annotations are read, its hosts (and every HTTPRoute's) and the default backend derived
   * again (a scan, once per cluster, over a snapshot the committer loads whole for it).
   */
  private markLayoutChanged(): void {
    const { dirty, state } = this
    state.indexClasses()
    state.indexRouteServices()
    // Before any object's rules change: a snapshot before layout 32 has no counts of them.
    recountRuleUses(this.headerRules)
    recountRuleUses(this.canaryRules)
    // Before any host is derived again, which adds and releases its backends' uses: before layout 70 they counted routes.
    const defaultBackend = this.defaultBackend.get(CLUSTER_WIDE)?.name
    this.backendUses.recount([
      ...[...this.hostTables.hosts.entries()].map(([, config]) => routesBackends(config.routes).keys()),
      ...(defaultBackend !== undefined && defaultBackend !== REFUSED_BACKEND ? [[defaultBackend]] : []),
    ])
    dirty.settings = true
    dirty.defaultBackend = true
    for (const ingress of state.ingresses()) {
      dirty.objects.push(objectRef(ingress))
      for (const host of hostsOf(ingress)) dirty.hosts.add(host)
    }
    // And every Gateway's and HTTPRoute's (32: a split's maps and frontend rule; 35: filters and timeouts), indexed
    // under the hosts this layout attaches them to (46: Selector listeners).
    state.indexEveryRouteHosts()
    touchEveryGateway(state, dirty)
    // Backends are rendered again too: a layout may add rules to every one (8: set-timeout).
    for (const service of this.backendUses.services()) dirty.services.add(service)
  }

  private reconcileSettings(plan: Plan): void {
    const { settings, rejections, defaultCertificate: fallback, tlsListeners } = deriveSettings(this.state)
    const redirectChanged = HOST_SETTINGS.some((key) => settings[key] !== this.settings[key])
    if (GATEWAY_SETTINGS.some((key) => settings[key] !== this.settings[key])) touchEveryGateway(this.state, this.dirty)
    const lists = crtListsOf(this.state.options.gatewayPorts)
    reconcileDefaultCertificate(
      this.genesis ? undefined : this.defaultCertificate,
      fallback,
      lists,
      crtListsOf(this.formerPorts.gatewayPorts),
      this.files,
      plan,
    )
    reconcileTlsListeners(this.tlsListeners, tlsListeners, this.files)
    this.settings = settings
    this.defaultCertificate = 'pem' in fallback ? fallback.secret : undefined
    this.tlsListeners = tlsListeners
    this.settingsTable.set(CLUSTER_WIDE, {
      settings,
      rejections,
      options: canonicalOptions(this.state.options),
      layout: SNAPSHOT_LAYOUT,
      ...(this.defaultCertificate !== undefined ? { defaultCertificate: this.defaultCertificate } : {}),
      ...(tlsListeners.length > 0 ? { tlsListeners } : {}),
    })
    if (this.files.setText(FILES.global, renderGlobal(settings))) needReload(plan, 'global settings changed')
    // The same for every cluster: written by a new cluster's first write, or a newer hapedge's (which reloads for the global settings too).
    for (const [file, script] of SHIPPED_LUA) if (this.files.setText(file, script)) needReload(plan, `the shipped Lua ${file} changed`)
    if (!redirectChanged) return
    const { bySecret } = this.hostTables
    for (const secret of bySecret.keys()) for (const host of bySecret.members(secret)) this.dirty.hosts.add(host)
  }

  /** An object's own reports derived again: its rejection, and an Ingress's annotation warnings. */
  private reconcileObjectRejection(ref: ObjectRef): void {
    const key = objectKey(ref)
    const object = this.state.get(ref)
    const rejection = object && rejectionOfObject(object, this.state)
    if (rejection) this.objectRejections.set(key, rejection)
    else if (this.objectRejections.has(key)) this.objectRejections.delete(key)
    const warnings = object ? warningsOfObject(object, this.state) : []
    if (warnings.length > 0) this.ingressWarnings.set(key, warnings)
    else if (this.ingressWarnings.has(key)) this.ingressWarnings.delete(key)
  }

  private renderFrontend(): string {
    const { httpBind, httpsBind, gatewayPorts } = this.state.options
    // The access groups are a scan of their table: one entry per Ingress with source ranges, few.
    const groups = [...this.accessGroups.entries()].map(([, group]) => group)
    const accessGroups = groups.map((group) => group.name)
    const trusted = trustedProxies(this.settings).length > 0
    const fallback = this.defaultCertificate
    return renderFrontend({
      httpBind,
      httpsBind,
      tls: this.files.count(FILES.crtList) > 0,
      tlsPorts: (gatewayPorts ?? []).filter((own) => this.files.count(portCrtList(own.port)) > 0).map((own) => own.port),
      defaultCertificate: fallback !== undefined && this.files.text(defaultCertificateFile(fallback)) !== undefined,
      clientCerts: this.files.count(FILES.clientCertMap) > 0,
      accessGroups,
      trustedProxies: trusted,
      authRules: authRules(groups),
      limitExemptRules: limitExemptRules(groups),
      // Each rule once, from the tables that count them: as many entries as distinct rules, however many Ingresses have them.
      headerRules: unionOfRules([distinctRules(this.headerRules)]),
      canaryRules: unionOfCanaryRules([distinctRules(this.canaryRules)]),
      misdirectedRequests: this.files.count(FILES.tlsListenersMap) > 0,
      http2: this.settings['use-http2'],
      proxyProtocolFrom: proxyProtocolSources(this.settings),
      gatewayPorts,
      fallThrough: this.files.count(FILES.fallThroughMap) > 0,
    })
  }
}
