import type { KubeConfig } from '@kubernetes/client-node'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { compareResourceVersions } from '../../core/incremental/resource-version.ts'
import { DEFAULT_BACKOFF, type Backoff } from '../../functions/adapters/kubernetes/backoff.ts'
import { Delivery, DEFAULT_DELIVERY, type DeliveryOptions } from './delivery.ts'
import type { FunctionClient } from './function-client.ts'
import { objectKey, trimObject, type KubeObject } from '../../functions/adapters/kubernetes/kube-object.ts'
import { ResourceWatch, type ChangeType, type WatchedResource } from '../../functions/adapters/kubernetes/resource-watch.ts'
import { ObjectReferences } from './object-references.ts'
import { isAuthSecretType, trimmedData } from '../../core/kube/auth-secret.ts'
import { watchedBy, watchedResources } from './watched-resources.ts'
import { onlyStatusChanged } from './status-echo.ts'

export interface ForwarderOptions {
  kubeConfig: KubeConfig
  client: FunctionClient
  /** The ConfigMap holding the cluster's settings (`DEFAULT_OPTIONS.configMap` unless the cluster names another). */
  configMap: { namespace: string; name: string }
  /** A full resync this often besides the ones a 410 forces, to repair anything lost (0: never). */
  resyncEveryMs?: number
  delivery?: Partial<Pick<DeliveryOptions, 'maxEvents' | 'maxBytes' | 'delayMs' | 'backoff' | 'resyncPageItems'>>
  /**
   * Called with each answer of the function, in order. The seam for a `--write-status` mode
   * (clusters whose API server the function cannot reach): the status writer would write the
   * `HAProxyCfg` status for `result.generation` from here.
   */
  onCommitted?: DeliveryOptions['onCommitted']
  /** Backoff between failed lists and watches. */
  watchBackoff?: Backoff
  log?: (line: string) => void
}

/** The kinds whose objects name the Secrets and ConfigMaps sent only while named: Ingresses, and Gateways (their certificates). */
const NAMING_KINDS: ReadonlySet<string> = new Set(['Ingress', 'Gateway'])

/**
 * `hapedge forward`: keeps the function's view of a cluster equal to the API server's. It
 * lists every kind hapedge reads and sends them as one full resync, then watches each kind and
 * posts the events in batches. Secrets and ConfigMaps are the exception: the function only ever
 * gets a Secret while some Ingress names it, a `kubernetes.io/tls` one in `spec.tls` (in its own
 * namespace), an `Opaque` or `nginx.org/htpasswd` one in its basic authentication's annotation,
 * and a ConfigMap (but the settings' one, always sent) while an Ingress's custom-headers names it
 * in its own namespace; it gets it when the first such Ingress appears, and a DELETED when the last one goes.
 */
export class Forwarder {
  private readonly mirror = new Map<string, KubeObject>()
  private readonly references = new ObjectReferences()
  /** Secrets and ConfigMaps sent because an Ingress names them that the function holds (as far as what was sent says). */
  private readonly sentNamed = new Set<string>()
  /** `ConfigMap/ns/name` of the settings' ConfigMap: sent whether or not an Ingress names it. */
  private readonly settingsKey: string
  private readonly watches: ResourceWatch[]
  private readonly delivery: Delivery
  private readonly log: (line: string) => void
  private latestVersion = ''
  private started = false
  private stopped = false
  private resyncTimer: NodeJS.Timeout | undefined

  constructor(private readonly options: ForwarderOptions) {
    this.log = options.log ?? ((line) => console.log(`hapedge forward: ${line}`))
    this.settingsKey = `ConfigMap/${options.configMap.namespace}/${options.configMap.name}`
    this.delivery = new Delivery(options.client, {
      ...DEFAULT_DELIVERY,
      ...options.delivery,
      onCommitted: options.onCommitted,
      snapshot: () => this.snapshot(),
      log: this.log,
    })
    const backoff = options.watchBackoff ?? DEFAULT_BACKOFF
    this.watches = watchedResources().map(
      (resource) =>
        new ResourceWatch(
          options.kubeConfig,
          resource,
          {
            listed: (items, version, why) => this.listed(resource, items, version, why),
            changed: (type, object) => this.changed(resource, type, object),
            log: this.log,
          },
          backoff,
        ),
    )
  }

  /** Lists every kind, queues the first full resync, and starts watching; resolves once the lists are in. */
  async start(): Promise<void> {
    await Promise.all(this.watches.map((watch) => watch.list('start')))
    if (this.stopped) return
    this.started = true
    this.delivery.resync()
    for (const watch of this.watches) watch.start()
    const every = this.options.resyncEveryMs ?? 0
    if (every > 0) this.resyncTimer = setInterval(() => this.delivery.resync(), every)
  }

  /** Stops watching, sends the batch still open and waits (up to `timeoutMs`) for everything queued to be delivered. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true
    clearInterval(this.resyncTimer)
    await Promise.all(this.watches.map((watch) => watch.stop()))
    await this.delivery.drain(timeoutMs)
  }

  /** Each kind's last resourceVersion seen: where its watch resumes. */
  get resourceVersions(): Record<string, string> {
    return Object.fromEntries(this.watches.map((watch) => [watch.resource.kind, watch.lastResourceVersion]))
  }

  /** Whether anything is still waiting to be sent. */
  get pending(): boolean {
    return this.delivery.busy
  }

  private listed(resource: WatchedResource, items: KubeObject[], resourceVersion: string, why: 'start' | 'expired'): void {
    this.noteVersion(resourceVersion)
    // Secrets come from one watch per type: a list replaces its own type's only.
    for (const [key, object] of this.mirror) if (watchedBy(resource, object)) this.mirror.delete(key)
    for (const item of items) {
      const object = keptFields(trimObject(item, resource.apiVersion, resource.kind))
      this.mirror.set(objectKey(object), object)
    }
    if (NAMING_KINDS.has(resource.kind)) {
      this.references.clear()
      for (const [key, object] of this.mirror) if (NAMING_KINDS.has(object.kind ?? '')) this.references.setIngress(key, object)
    }
    if (why === 'expired' && this.started) this.delivery.resync()
  }

  private changed(resource: WatchedResource, type: ChangeType, raw: KubeObject): void {
    const object = keptFields(trimObject(raw, resource.apiVersion, resource.kind))
    const key = objectKey(object)
    this.noteVersion(object.metadata?.resourceVersion)
    const previous = this.mirror.get(key)
    if (type === 'DELETED') this.mirror.delete(key)
    else this.mirror.set(key, object)
    // A status write coming back (a Gateway API status hapedge wrote, most often): kept in the mirror, not sent.
    if (type === 'MODIFIED' && onlyStatusChanged(previous, object)) return
    if (this.sentWhileNamed(key)) return this.namedChanged(key, type, object)
    if (!NAMING_KINDS.has(resource.kind)) return this.delivery.add({ type, object })

    const { added, removed } = this.references.setIngress(key, type === 'DELETED' ? undefined : object)
    for (const namedKey of added) {
      const named = this.mirror.get(namedKey)
      if (named && this.sentWhileNamed(namedKey) && !this.sentNamed.has(namedKey)) this.sendNamed('ADDED', namedKey, named)
    }
    this.delivery.add({ type, object })
    for (const namedKey of removed) if (this.sentNamed.has(namedKey)) this.sendNamed('DELETED', namedKey, this.mirror.get(namedKey))
  }

  /** Whether the function gets an object only while an Ingress names it: a Secret, or a ConfigMap other than the settings'. */
  private sentWhileNamed(key: string): boolean {
    return key.startsWith('Secret/') || (key.startsWith('ConfigMap/') && key !== this.settingsKey)
  }

  private namedChanged(key: string, type: ChangeType, named: KubeObject): void {
    if (type === 'DELETED') {
      if (this.sentNamed.has(key)) this.sendNamed('DELETED', key, named)
    } else if (this.references.has(key)) {
      this.sentNamed.add(key)
      this.delivery.add({ type, object: named })
    }
  }

  /**
   * A Secret or ConfigMap sent or withdrawn because an Ingress's references changed, not because
   * the object did: without a resourceVersion, since the function refuses a version it has
   * already seen (the object may come back with the very version it was withdrawn at), and a
   * withdrawal carries its identity only, never its data.
   */
  private sendNamed(type: 'ADDED' | 'DELETED', key: string, named: KubeObject | undefined): void {
    const [kind, namespace, name] = key.split('/')
    const { resourceVersion: _resourceVersion, ...metadata } = named?.metadata ?? { namespace, name }
    const identity = { namespace: metadata.namespace ?? namespace, name: metadata.name ?? name }
    const event: WatchEvent =
      type === 'ADDED'
        ? { type, object: { ...named, metadata } }
        : kind === 'Secret'
          ? { type, object: { apiVersion: 'v1', kind, type: typeof named?.type === 'string' ? named.type : 'kubernetes.io/tls', metadata: identity } }
          : { type, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: identity } }
    if (type === 'ADDED') this.sentNamed.add(key)
    else this.sentNamed.delete(key)
    this.delivery.add(event)
  }

  /** What the function should hold, read when a resync is sent: every object but the Secrets and ConfigMaps no Ingress names. */
  private snapshot(): { items: object[]; resourceVersion?: string } {
    const items: object[] = []
    this.sentNamed.clear()
    for (const [key, object] of this.mirror) {
      if (!this.sentWhileNamed(key)) items.push(object)
      else if (this.references.has(key)) {
        this.sentNamed.add(key)
        // Without its resourceVersion for the reason sendNamed gives: it may return at the version it was withdrawn at.
        const { resourceVersion: _resourceVersion, ...metadata } = object.metadata ?? {}
        items.push({ ...object, metadata })
      }
    }
    return { items, ...(this.latestVersion ? { resourceVersion: this.latestVersion } : {}) }
  }

  private noteVersion(version: string | undefined): void {
    if (version && /^\d+$/.test(version) && (!this.latestVersion || compareResourceVersions(version, this.latestVersion) > 0)) this.latestVersion = version
  }
}

/**
 * An object as the mirror keeps it: an `Opaque` or `nginx.org/htpasswd` Secret with the keys that
 * may hold users only (as the engine reads it: whatever else such a Secret holds is neither kept
 * here nor sent); a ConfigMap without its `binaryData`, which hapedge never reads (the watch holds
 * every ConfigMap of the cluster).
 */
function keptFields(object: KubeObject): KubeObject {
  if (object.kind === 'ConfigMap' && 'binaryData' in object) {
    const { binaryData: _binaryData, ...rest } = object
    return rest
  }
  if (object.kind !== 'Secret' || !isAuthSecretType(object.type) || typeof object.data !== 'object' || object.data === null) return object
  return { ...object, data: trimmedData(object.data as Record<string, string>) }
}
