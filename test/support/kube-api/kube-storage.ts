import { randomBytes, randomUUID } from 'node:crypto'
import { alreadyExists, badRequest, conflict, notFound } from './kube-error.ts'
import { apiVersionOf, type ResourceType } from './resources.ts'
import type { KubeObject } from './selectors.ts'

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED'

/** One write, as etcd would record it: watches replay these from a resourceVersion until compaction drops them. */
export interface Change {
  type: ChangeType
  resource: ResourceType
  object: KubeObject
  /** The object before the write (absent for ADDED): a watch with a selector turns a change in or out of the selection into ADDED or DELETED. */
  previous?: KubeObject
  resourceVersion: number
}

/** What a write may change: the whole object (the main resource, which keeps `.status` when that is a subresource), `.status` only, or everything (test controls). */
export type WriteScope = 'main' | 'status' | 'control'

/**
 * The double's etcd: objects by resource type, one global resourceVersion counter, and the
 * history of changes since the last compaction.
 */
export class KubeStorage {
  private revision: number
  /** Changes below this resourceVersion are gone: a watch or continue token from before it gets 410 Expired. */
  private compactedBelow = 0
  private readonly objects = new Map<ResourceType, Map<string, KubeObject>>()
  private history: Change[] = []
  private readonly listeners = new Set<(change: Change) => void>()

  constructor(startResourceVersion: number) {
    this.revision = startResourceVersion
  }

  get resourceVersion(): number {
    return this.revision
  }

  get oldestResourceVersion(): number {
    return this.compactedBelow
  }

  list(resource: ResourceType, namespace?: string): KubeObject[] {
    const objects = [...(this.objects.get(resource)?.values() ?? [])].filter((object) => namespace === undefined || object.metadata?.namespace === namespace)
    return objects.sort((a, b) => storageKey(a).localeCompare(storageKey(b))).map((object) => structuredClone(object))
  }

  get(resource: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const object = this.objects.get(resource)?.get(key(namespace, name))
    if (!object) throw notFound(resource.plural, name)
    return structuredClone(object)
  }

  create(resource: ResourceType, namespace: string | undefined, input: KubeObject, scope: WriteScope): KubeObject {
    const metadata = { ...input.metadata }
    if (!metadata.name && typeof metadata.generateName === 'string') metadata.name = metadata.generateName + randomBytes(3).toString('hex').slice(0, 5)
    if (!metadata.name) throw badRequest('metadata.name: Required value: name or generateName is required')
    const name = metadata.name
    if (this.objects.get(resource)?.has(key(namespace, name))) throw alreadyExists(resource.plural, name)
    const object: KubeObject = { ...structuredClone(input), apiVersion: apiVersionOf(resource), kind: resource.kind }
    if (resource.status && scope !== 'control') delete object.status
    object.metadata = {
      ...metadata,
      ...(namespace === undefined ? {} : { namespace }),
      uid: randomUUID(),
      creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      generation: 1,
      resourceVersion: '',
    }
    if (namespace === undefined) delete object.metadata.namespace
    return this.commit('ADDED', resource, object)
  }

  /** Replaces an object; a `metadata.resourceVersion` in the input must be the stored one (optimistic concurrency), none means unconditionally. */
  replace(resource: ResourceType, namespace: string | undefined, name: string, input: KubeObject, scope: WriteScope): KubeObject {
    const previous = this.get(resource, namespace, name)
    const expected = input.metadata?.resourceVersion
    if (expected && expected !== previous.metadata?.resourceVersion) throw conflict(resource.plural, name)
    const object: KubeObject = structuredClone(input)
    if (scope === 'status') {
      const { status } = object
      Object.assign(object, previous, { status })
      if (status === undefined) delete object.status
    } else if (resource.status && scope === 'main') {
      if (previous.status === undefined) delete object.status
      else object.status = previous.status
    }
    const generation = Number(previous.metadata?.generation ?? 1)
    const specChanged = JSON.stringify(withoutMetadataAndStatus(object)) !== JSON.stringify(withoutMetadataAndStatus(previous))
    object.apiVersion = apiVersionOf(resource)
    object.kind = resource.kind
    object.metadata = {
      ...(scope === 'status' ? previous.metadata : object.metadata),
      name,
      uid: previous.metadata?.uid,
      creationTimestamp: previous.metadata?.creationTimestamp,
      generation: specChanged ? generation + 1 : generation,
    }
    if (namespace !== undefined) object.metadata.namespace = namespace
    return this.commit('MODIFIED', resource, object, previous)
  }

  delete(resource: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const previous = this.get(resource, namespace, name)
    return this.commit('DELETED', resource, structuredClone(previous), previous)
  }

  /** Every change of `resource` after `resourceVersion`, or undefined when compaction dropped some of them. */
  changesSince(resourceVersion: number): Change[] | undefined {
    if (resourceVersion < this.compactedBelow) return undefined
    return this.history.filter((change) => change.resourceVersion > resourceVersion)
  }

  /** Forgets the history: every resourceVersion handed out so far is now too old to watch from. */
  compact(): void {
    this.revision++
    this.compactedBelow = this.revision
    this.history = []
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private commit(type: ChangeType, resource: ResourceType, object: KubeObject, previous?: KubeObject): KubeObject {
    const resourceVersion = ++this.revision
    object.metadata = { ...object.metadata, resourceVersion: String(resourceVersion) }
    let objects = this.objects.get(resource)
    if (!objects) this.objects.set(resource, (objects = new Map()))
    const id = key(object.metadata.namespace, object.metadata.name!)
    if (type === 'DELETED') objects.delete(id)
    else objects.set(id, object)
    const change: Change = { type, resource, object: structuredClone(object), ...(previous ? { previous } : {}), resourceVersion }
    this.history.push(change)
    for (const listener of this.listeners) listener(change)
    return structuredClone(object)
  }
}

const key = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`
const storageKey = (object: KubeObject) => key(object.metadata?.namespace, object.metadata?.name ?? '')

function withoutMetadataAndStatus(object: KubeObject): KubeObject {
  const { metadata: _metadata, status: _status, apiVersion: _apiVersion, kind: _kind, ...rest } = object
  return rest
}
