import { ChunkedFile, textChunk, type Chunk, type Entry } from '../chunks/chunked-file.ts'
import type { GenerationFiles } from '../generation/manifest.ts'
import { objectKey, objectRef, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import { backendName, type BackendRef } from '../model/backend-ref.ts'
import { ClusterState, hostsOf, serviceKeyOfSlice, type InvalidObject } from '../model/cluster-state.ts'
import type { ClusterModel } from '../model/derive-cluster.ts'
import { deriveSettings, rejectionOfInvalid } from '../model/derive-cluster.ts'
import { deriveBackend, type Backend } from '../model/derive-backend.ts'
import { deriveDefaultBackend } from '../model/derive-default-backend.ts'
import { deriveHost, type DerivedHost } from '../model/derive-host.ts'
import { Index } from '../model/index-of-sets.ts'
import { normalizeRejections, type Rejection } from '../model/rejection.ts'
import type { ClusterOptions, Settings } from '../model/settings.ts'
import { resolveTlsSecret } from '../model/tls-secret.ts'
import { certificateFile, CHUNKED_FILES, FILES } from '../render/files.ts'
import { renderBackend } from '../render/render-backends.ts'
import { renderFrontend } from '../render/render-frontend.ts'
import { renderGlobal } from '../render/render-global.ts'
import { defaultMap, HOST_MAPS, hostMapEntries } from '../render/render-maps.ts'
import { crtListEntry } from '../render/render-tls.ts'
import { DirtySet } from './dirty-set.ts'
import { emptyPlan, needReload, type Plan } from './plan.ts'
import { planServerChanges } from './server-changes.ts'
import { objectChange, type WatchEvent } from './watch-event.ts'

export interface ApplyResult {
  /** Paths of the files whose content changed. */
  files: Set<string>
  plan: Plan
}

/**
 * A cluster kept up to date event by event. Each event marks what it touches (hosts, Services,
 * Secrets, the default backend, settings); only those are derived again, and only the entries
 * whose text changed are set in the chunked files. The result equals a full rebuild from the
 * same objects, byte for byte (the property tests hold the two paths against each other).
 */
export class IncrementalCluster {
  readonly state: ClusterState
  private settings: Settings
  private settingsRejections: Rejection[] = []
  private readonly hosts = new Map<string, DerivedHost>()
  private readonly backends = new Map<string, Backend>()
  private readonly backendUses = new Map<string, { ref: BackendRef; count: number }>()
  private readonly backendsByService = new Index()
  private defaultBackend: { name?: string; rejections: Rejection[] } = { rejections: [] }
  private readonly objectRejections = new Map<string, Rejection>()
  private readonly hostsBySecret = new Index()
  private readonly certificates = new Map<string, string>()
  private readonly chunked = new Map<string, ChunkedFile>()
  private readonly single = new Map<string, Chunk>()
  /** The current files, kept up to date path by path (a live view: read it, do not change it). */
  private readonly current: GenerationFiles = new Map()

  constructor(options: Partial<ClusterOptions> = {}) {
    this.state = new ClusterState(options)
    this.settings = deriveSettings(this.state).settings
    for (const [path, perChunk] of CHUNKED_FILES) this.chunked.set(path, new ChunkedFile(perChunk))
    this.single.set(FILES.global, textChunk(renderGlobal(this.settings)))
    this.single.set(FILES.frontend, textChunk(this.renderFrontend()))
    this.single.set(FILES.defaultMap, textChunk(''))
    for (const path of [...this.single.keys(), ...this.chunked.keys()]) this.refreshFile(path)
  }

  apply(events: Iterable<WatchEvent>): ApplyResult {
    const dirty = new DirtySet()
    for (const event of events) this.applyEvent(event, dirty)
    return this.reconcile(dirty)
  }

  private applyEvent(event: WatchEvent, dirty: DirtySet): void {
    const change = objectChange(event)
    if ('ignore' in change) return
    const ref = 'remove' in change ? change.remove : change.put.status === 'object' ? objectRef(change.put.object) : change.put.ref
    const servedWithoutClass = this.state.servesClass(undefined)
    const previous = 'remove' in change ? this.state.remove(ref) : this.state.apply(change.put)
    const current = this.state.get(ref)
    dirty.objects.push(ref)
    for (const object of [previous, current]) if (object) this.markTouched(object, dirty)
    if (ref.kind === 'Secret') dirty.secrets.add(`${ref.namespace}/${ref.name}`)
    if (ref.kind === 'ConfigMap') dirty.settings = true
    if (ref.kind === 'IngressClass' && servedWithoutClass !== this.state.servesClass(undefined)) dirty.ingressClass = true
  }

  private markTouched(object: KubeObject | InvalidObject, dirty: DirtySet): void {
    if ('issues' in object) return
    if (object.kind === 'Ingress') {
      for (const host of hostsOf(object)) dirty.hosts.add(host)
      if (object.spec.defaultBackend) dirty.defaultBackend = true
    }
    if (object.kind === 'Service') dirty.services.add(`${object.metadata.namespace}/${object.metadata.name}`)
    if (object.kind === 'EndpointSlice') dirty.services.add(serviceKeyOfSlice(object))
  }

  private reconcile(dirty: DirtySet): ApplyResult {
    const result: ApplyResult = { files: new Set(), plan: emptyPlan() }
    if (dirty.settings) this.reconcileSettings(dirty, result)
    if (dirty.ingressClass) {
      for (const ingress of this.state.ingressesWithoutClass()) for (const host of hostsOf(ingress)) dirty.hosts.add(host)
      dirty.defaultBackend = true
      for (const invalid of this.state.invalid()) dirty.objects.push(invalid.ref)
    }
    for (const secret of dirty.secrets) {
      for (const ingress of this.state.ingressesForSecret(secret)) {
        for (const tls of ingress.spec.tls ?? []) if (`${ingress.metadata.namespace}/${tls.secretName}` === secret) for (const host of tls.hosts ?? []) dirty.hosts.add(host)
      }
    }
    for (const ref of dirty.objects) this.reconcileObjectRejection(ref)

    const touchedSecrets = new Set(dirty.secrets)
    const touchedBackends = new Set<string>()
    for (const host of dirty.hosts) this.reconcileHost(host, touchedSecrets, touchedBackends, result)
    if (dirty.defaultBackend) this.reconcileDefaultBackend(touchedBackends, result)
    for (const service of dirty.services) for (const name of this.backendsByService.get(service) ?? []) touchedBackends.add(name)
    for (const name of touchedBackends) this.reconcileBackend(name, result)
    for (const secret of touchedSecrets) this.reconcileCertificate(secret, result)
    if (this.setSingle(FILES.frontend, this.renderFrontend(), result)) needReload(result.plan, 'the frontend changed (HTTPS bind added or removed)')
    for (const path of result.files) this.refreshFile(path)
    return result
  }

  private refreshFile(path: string): void {
    const chunked = this.chunked.get(path)
    const single = this.single.get(path)
    if (chunked && (path !== FILES.crtList || chunked.size > 0)) this.current.set(path, chunked.chunkList)
    else if (single) this.current.set(path, [single])
    else this.current.delete(path)
  }

  private reconcileSettings(dirty: DirtySet, result: ApplyResult): void {
    const { settings, rejections } = deriveSettings(this.state)
    this.settingsRejections = rejections
    const redirectChanged = settings['ssl-redirect'] !== this.settings['ssl-redirect']
    this.settings = settings
    if (this.setSingle(FILES.global, renderGlobal(settings), result)) needReload(result.plan, 'global settings changed')
    if (redirectChanged) for (const host of this.hostsBySecret.values()) dirty.hosts.add(host)
  }

  private reconcileObjectRejection(ref: ObjectRef): void {
    const key = objectKey(ref)
    const object = this.state.get(ref)
    const rejection = object && 'issues' in object ? rejectionOfInvalid(object, this.state) : undefined
    if (rejection) this.objectRejections.set(key, rejection)
    else this.objectRejections.delete(key)
  }

  private reconcileHost(host: string, touchedSecrets: Set<string>, touchedBackends: Set<string>, result: ApplyResult): void {
    const before = this.hosts.get(host)
    const after = deriveHost(host, this.state, this.settings)
    if (after.config || after.rejections.length) this.hosts.set(host, after)
    else this.hosts.delete(host)

    const oldEntries = hostMapEntries(before?.config)
    const newEntries = hostMapEntries(after.config)
    for (const map of HOST_MAPS) this.replaceEntries(map, oldEntries[map], newEntries[map], result)

    for (const route of after.config?.routes ?? []) this.useBackend(route.backendName, route.backend, touchedBackends)
    for (const route of before?.config?.routes ?? []) this.releaseBackend(route.backendName, touchedBackends)

    const oldSecret = before?.config?.tlsSecret
    const newSecret = after.config?.tlsSecret
    if (oldSecret !== newSecret) {
      if (oldSecret) this.hostsBySecret.delete(oldSecret, host)
      if (newSecret) this.hostsBySecret.add(newSecret, host)
    }
    if (oldSecret) touchedSecrets.add(oldSecret)
    if (newSecret) touchedSecrets.add(newSecret)
  }

  private replaceEntries(path: string, before: Entry[], after: Entry[], result: ApplyResult): void {
    const file = this.chunked.get(path)!
    const kept = new Set(after.map((entry) => entry.key))
    for (const entry of before) if (!kept.has(entry.key) && file.set(entry.key, undefined)) this.recordMapChange(path, entry.key, undefined, result)
    for (const entry of after) if (file.set(entry.key, entry.text)) this.recordMapChange(path, entry.key, entry.text, result)
  }

  private recordMapChange(map: string, key: string, text: string | undefined, result: ApplyResult): void {
    result.files.add(map)
    result.plan.maps.push(text === undefined ? { map, key } : { map, key, value: text.slice(key.length + 1, -1) })
  }

  private reconcileDefaultBackend(touchedBackends: Set<string>, result: ApplyResult): void {
    const derived = deriveDefaultBackend(this.state)
    const name = derived.backend && backendName(derived.backend)
    if (derived.backend && name) this.useBackend(name, derived.backend, touchedBackends)
    if (this.defaultBackend.name) this.releaseBackend(this.defaultBackend.name, touchedBackends)
    this.defaultBackend = { name, rejections: derived.rejections }
    if (this.setSingle(FILES.defaultMap, defaultMap(name), result)) {
      result.plan.maps.push(name ? { map: FILES.defaultMap, key: 'default', value: name } : { map: FILES.defaultMap, key: 'default' })
    }
  }

  private useBackend(name: string, ref: BackendRef, touched: Set<string>): void {
    const use = this.backendUses.get(name)
    if (use) use.count++
    else {
      this.backendUses.set(name, { ref, count: 1 })
      this.backendsByService.add(`${ref.namespace}/${ref.service}`, name)
      touched.add(name)
    }
  }

  private releaseBackend(name: string, touched: Set<string>): void {
    const use = this.backendUses.get(name)!
    if (--use.count > 0) return
    this.backendUses.delete(name)
    this.backendsByService.delete(`${use.ref.namespace}/${use.ref.service}`, name)
    touched.add(name)
  }

  private reconcileBackend(name: string, result: ApplyResult): void {
    const file = this.chunked.get(FILES.backends)!
    const before = this.backends.get(name)
    const use = this.backendUses.get(name)
    if (!use) {
      // An unused backend leaves the files; the running one is unreachable until the next reload drops it.
      this.backends.delete(name)
      if (file.set(name, undefined)) result.files.add(FILES.backends)
      return
    }
    const after = deriveBackend(use.ref, this.state)
    this.backends.set(name, after)
    if (!file.set(name, renderBackend(after))) return
    result.files.add(FILES.backends)
    if (!before) needReload(result.plan, `backend ${name} is new`)
    else planServerChanges(before, after, result.plan)
  }

  private reconcileCertificate(secret: string, result: ApplyResult): void {
    const hosts = [...(this.hostsBySecret.get(secret) ?? [])]
    const crtList = this.chunked.get(FILES.crtList)!
    const path = certificateFile(secret)
    const [namespace = '', name] = secret.split('/')
    const resolved = hosts.length ? resolveTlsSecret(this.state, namespace, name) : undefined
    if (!resolved?.ok) {
      this.certificates.delete(secret)
      if (crtList.set(secret, undefined)) {
        result.files.add(FILES.crtList)
        needReload(result.plan, `certificate ${path} is no longer served`)
      }
      if (this.single.delete(path)) result.files.add(path)
      return
    }
    const isNew = !this.single.has(path)
    this.certificates.set(secret, resolved.pem)
    if (this.setSingle(path, resolved.pem, result) && !isNew) result.plan.certificates.push(path)
    if (crtList.set(secret, crtListEntry(secret, hosts).text)) {
      result.files.add(FILES.crtList)
      needReload(result.plan, 'the certificate list changed')
    }
  }

  private setSingle(path: string, text: string, result: ApplyResult): boolean {
    if (this.single.get(path)?.text === text) return false
    this.single.set(path, textChunk(text))
    result.files.add(path)
    return true
  }

  private renderFrontend(): string {
    const { httpBind, httpsBind } = this.state.options
    return renderFrontend({ httpBind, httpsBind, tls: this.certificates.size > 0 })
  }

  /** The generation's files, as the full rebuild would cut them (in no particular order). */
  files(): ReadonlyMap<string, readonly Chunk[]> {
    return this.current
  }

  rejections(): Rejection[] {
    const all: Rejection[] = [...this.objectRejections.values(), ...this.settingsRejections, ...this.defaultBackend.rejections]
    for (const host of this.hosts.values()) all.push(...host.rejections)
    return normalizeRejections(all)
  }

  /** The derived model, for comparison with the full rebuild's. */
  model(): ClusterModel {
    const hosts = new Map<string, NonNullable<DerivedHost['config']>>()
    for (const [host, derived] of this.hosts) if (derived.config) hosts.set(host, derived.config)
    return {
      settings: this.settings,
      hosts,
      backends: new Map(this.backends),
      defaultBackend: this.defaultBackend.name,
      certificates: new Map(this.certificates),
      rejections: this.rejections(),
    }
  }
}
