import type { KubeConfig } from '@kubernetes/client-node'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { compareResourceVersions } from '../../core/incremental/resource-version.ts'
import { DEFAULT_BACKOFF, type Backoff } from '../../functions/adapters/kubernetes/backoff.ts'
import { Delivery, DEFAULT_DELIVERY, type DeliveryOptions } from './delivery.ts'
import type { FunctionClient } from './function-client.ts'
import { objectKey, trimObject, type KubeObject } from '../../functions/adapters/kubernetes/kube-object.ts'
import { ResourceWatch, type ChangeType, type WatchedResource } from '../../functions/adapters/kubernetes/resource-watch.ts'
import { SecretReferences } from './secret-references.ts'
import { isAuthSecretType, trimmedData } from '../../core/kube/auth-secret.ts'
import { watchedBy, watchedResources } from './watched-resources.ts'

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

/**
 * `hapedge forward`: keeps the function's view of a cluster equal to the API server's. It
 * lists every kind hapedge reads and sends them as one full resync, then watches each kind and
 * posts the events in batches. Secrets are the exception: the function only ever gets a
 * Secret while some Ingress names it, a `kubernetes.io/tls` one in `spec.tls` (in its own
 * namespace), an `Opaque` or `nginx.org/htpasswd` one in its basic authentication's annotation;
 * it gets it when the first such Ingress appears, and a DELETED when the last one goes.
 */
export class Forwarder {
  private readonly mirror = new Map<string, KubeObject>()
  private readonly references = new SecretReferences()
  /** Secrets the function holds (as far as what was sent says). */
  private readonly sentSecrets = new Set<string>()
  private readonly watches: ResourceWatch[]
  private readonly delivery: Delivery
  private readonly log: (line: string) => void
  private latestVersion = ''
  private started = false
  private stopped = false
  private resyncTimer: NodeJS.Timeout | undefined

  constructor(private readonly options: ForwarderOptions) {
    this.log = options.log ?? ((line) => console.log(`hapedge forward: ${line}`))
    this.delivery = new Delivery(options.client, {
      ...DEFAULT_DELIVERY,
      ...options.delivery,
      onCommitted: options.onCommitted,
      snapshot: () => this.snapshot(),
      log: this.log,
    })
    const backoff = options.watchBackoff ?? DEFAULT_BACKOFF
    this.watches = watchedResources(options.configMap).map(
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
      const object = usersOnly(trimObject(item, resource.apiVersion, resource.kind))
      this.mirror.set(objectKey(object), object)
    }
    if (resource.kind === 'Ingress') {
      this.references.clear()
      for (const [key, object] of this.mirror) if (object.kind === 'Ingress') this.references.setIngress(key, object)
    }
    if (why === 'expired' && this.started) this.delivery.resync()
  }

  private changed(resource: WatchedResource, type: ChangeType, raw: KubeObject): void {
    const object = usersOnly(trimObject(raw, resource.apiVersion, resource.kind))
    const key = objectKey(object)
    this.noteVersion(object.metadata?.resourceVersion)
    if (type === 'DELETED') this.mirror.delete(key)
    else this.mirror.set(key, object)
    if (resource.kind === 'Secret') return this.secretChanged(key, type, object)
    if (resource.kind !== 'Ingress') return this.delivery.add({ type, object })

    const { added, removed } = this.references.setIngress(key, type === 'DELETED' ? undefined : object)
    for (const secretKey of added) {
      const secret = this.mirror.get(secretKey)
      if (secret && !this.sentSecrets.has(secretKey)) this.sendSecret('ADDED', secretKey, secret)
    }
    this.delivery.add({ type, object })
    for (const secretKey of removed) if (this.sentSecrets.has(secretKey)) this.sendSecret('DELETED', secretKey, this.mirror.get(secretKey))
  }

  private secretChanged(key: string, type: ChangeType, secret: KubeObject): void {
    if (type === 'DELETED') {
      if (this.sentSecrets.has(key)) this.sendSecret('DELETED', key, secret)
    } else if (this.references.has(key)) {
      this.sentSecrets.add(key)
      this.delivery.add({ type, object: secret })
    }
  }

  /**
   * A Secret sent or withdrawn because an Ingress's references changed, not because the Secret
   * did: without a resourceVersion, since the function refuses a version it has already seen
   * (the Secret may come back with the very version it was withdrawn at), and a withdrawal
   * carries its identity only, never the key.
   */
  private sendSecret(type: 'ADDED' | 'DELETED', key: string, secret: KubeObject | undefined): void {
    const [, namespace, name] = key.split('/')
    const { resourceVersion: _resourceVersion, ...metadata } = secret?.metadata ?? { namespace, name }
    const event: WatchEvent =
      type === 'ADDED'
        ? { type, object: { ...secret, metadata } }
        : {
            type,
            object: {
              apiVersion: 'v1',
              kind: 'Secret',
              type: typeof secret?.type === 'string' ? secret.type : 'kubernetes.io/tls',
              metadata: { namespace: metadata.namespace ?? namespace, name: metadata.name ?? name },
            },
          }
    if (type === 'ADDED') this.sentSecrets.add(key)
    else this.sentSecrets.delete(key)
    this.delivery.add(event)
  }

  /** What the function should hold, read when a resync is sent: every object but the Secrets no Ingress names. */
  private snapshot(): { items: object[]; resourceVersion?: string } {
    const items: object[] = []
    this.sentSecrets.clear()
    for (const [key, object] of this.mirror) {
      if (object.kind !== 'Secret') items.push(object)
      else if (this.references.has(key)) {
        this.sentSecrets.add(key)
        // Without its resourceVersion for the reason sendSecret gives: it may return at the version it was withdrawn at.
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
 * An `Opaque` or `nginx.org/htpasswd` Secret kept with the keys that may hold users only (as the
 * engine reads it): whatever else such a Secret holds is neither kept here nor sent.
 */
function usersOnly(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret' || !isAuthSecretType(object.type) || typeof object.data !== 'object' || object.data === null) return object
  return { ...object, data: trimmedData(object.data as Record<string, string>) }
}
