import type { Issue } from '../issues.ts'
import type { ConfigMap } from '../kube/config-map.ts'
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../kube/endpoint-slice.ts'
import { isDefaultClass, type IngressClass } from '../kube/ingress-class.ts'
import { requestedClass, type Ingress } from '../kube/ingress.ts'
import { objectKey, objectRef, type KubeObject, type ObjectRef, type ReadResult } from '../kube/objects.ts'
import type { TlsSecret } from '../kube/secret.ts'
import type { Service } from '../kube/service.ts'
import { DEFAULT_OPTIONS, type ClusterOptions } from './settings.ts'

export interface InvalidObject {
  ref: ObjectRef
  issues: Issue[]
  requestedClass?: string
}

/**
 * The objects of one cluster that hapedge reads, with the indexes that say which hosts and
 * backends each object feeds. It holds every Ingress whatever its class, so a class change is
 * a lookup, not a re-read.
 */
export class ClusterState {
  readonly options: ClusterOptions
  private readonly objects = new Map<string, KubeObject>()
  private readonly invalidObjects = new Map<string, InvalidObject>()
  private readonly ingressesByHost = new Index()
  private readonly slicesByService = new Index()
  private readonly ingressesByDefaultBackend = new Set<string>()

  constructor(options: Partial<ClusterOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options }
  }

  /** Applies a read object (or the news that it is malformed); returns what it replaced. */
  apply(read: ReadResult): KubeObject | InvalidObject | undefined {
    if (read.status === 'skipped') return undefined
    if (read.status === 'invalid') {
      const previous = this.remove(read.ref)
      this.invalidObjects.set(objectKey(read.ref), { ref: read.ref, issues: read.issues, requestedClass: read.requestedClass })
      return previous
    }
    const previous = this.remove(objectRef(read.object))
    this.insert(read.object)
    return previous
  }

  remove(ref: ObjectRef): KubeObject | InvalidObject | undefined {
    const key = objectKey(ref)
    const invalid = this.invalidObjects.get(key)
    if (invalid) {
      this.invalidObjects.delete(key)
      return invalid
    }
    const object = this.objects.get(key)
    if (!object) return undefined
    this.objects.delete(key)
    if (object.kind === 'Ingress') {
      for (const host of hostsOf(object)) this.ingressesByHost.delete(host, key)
      this.ingressesByDefaultBackend.delete(key)
    }
    if (object.kind === 'EndpointSlice') this.slicesByService.delete(serviceKeyOfSlice(object), key)
    return object
  }

  private insert(object: KubeObject): void {
    const key = objectKey(objectRef(object))
    if (object.kind === 'ConfigMap' && `${object.metadata.namespace}/${object.metadata.name}` !== this.options.configMap) return
    this.objects.set(key, object)
    if (object.kind === 'Ingress') {
      for (const host of hostsOf(object)) this.ingressesByHost.add(host, key)
      if (object.spec.defaultBackend) this.ingressesByDefaultBackend.add(key)
    }
    if (object.kind === 'EndpointSlice') this.slicesByService.add(serviceKeyOfSlice(object), key)
  }

  get size(): number {
    return this.objects.size + this.invalidObjects.size
  }

  /** Every host named by any Ingress (rules or TLS); `''` stands for rules without a host. */
  hosts(): Iterable<string> {
    return this.ingressesByHost.keys()
  }

  ingressesForHost(host: string): Ingress[] {
    return this.lookupAll<Ingress>(this.ingressesByHost.get(host))
  }

  ingressesWithDefaultBackend(): Ingress[] {
    return this.lookupAll<Ingress>(this.ingressesByDefaultBackend)
  }

  service(namespace: string, name: string): Service | undefined {
    return this.objects.get(`Service/${namespace}/${name}`) as Service | undefined
  }

  endpointSlices(namespace: string, service: string): EndpointSlice[] {
    return this.lookupAll<EndpointSlice>(this.slicesByService.get(`${namespace}/${service}`))
  }

  secret(namespace: string, name: string): TlsSecret | InvalidObject | undefined {
    const key = `Secret/${namespace}/${name}`
    return (this.objects.get(key) as TlsSecret | undefined) ?? this.invalidObjects.get(key)
  }

  configMap(): ConfigMap | undefined {
    return this.objects.get(`ConfigMap/${this.options.configMap}`) as ConfigMap | undefined
  }

  ingressClasses(): IngressClass[] {
    return [...this.objects.values()].filter((object): object is IngressClass => object.kind === 'IngressClass')
  }

  invalid(): Iterable<InvalidObject> {
    return this.invalidObjects.values()
  }

  /** Whether an Ingress asking for `requested` (undefined: no class) is served by this cluster's class. */
  servesClass(requested: string | undefined): boolean {
    if (requested !== undefined) return requested === this.options.ingressClass
    return this.ingressClasses().some((ingressClass) => isDefaultClass(ingressClass) && ingressClass.metadata.name === this.options.ingressClass)
  }

  serves(ingress: Ingress): boolean {
    return this.servesClass(requestedClass(ingress))
  }

  private lookupAll<T extends KubeObject>(keys: Iterable<string> | undefined): T[] {
    const found: T[] = []
    for (const key of keys ?? []) found.push(this.objects.get(key) as T)
    return found
  }
}

/** The hosts an Ingress names in its rules (`''` for a rule without host) and its TLS entries. */
export function hostsOf(ingress: Ingress): Set<string> {
  const hosts = new Set<string>()
  for (const rule of ingress.spec.rules ?? []) if (rule.http) hosts.add(rule.host ?? '')
  for (const tls of ingress.spec.tls ?? []) for (const host of tls.hosts ?? []) hosts.add(host)
  return hosts
}

function serviceKeyOfSlice(slice: EndpointSlice): string {
  return `${slice.metadata.namespace}/${slice.metadata.labels[SERVICE_NAME_LABEL]}`
}

/** A one-to-many index whose empty entries disappear, so its keys are exactly what is in use. */
class Index {
  private readonly entries = new Map<string, Set<string>>()

  add(key: string, value: string): void {
    let values = this.entries.get(key)
    if (!values) this.entries.set(key, (values = new Set()))
    values.add(value)
  }

  delete(key: string, value: string): void {
    const values = this.entries.get(key)
    if (!values) return
    values.delete(value)
    if (values.size === 0) this.entries.delete(key)
  }

  get(key: string): ReadonlySet<string> | undefined {
    return this.entries.get(key)
  }

  keys(): Iterable<string> {
    return this.entries.keys()
  }
}
