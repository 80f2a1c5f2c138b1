import { isRecord, objectKey } from '../kube/objects.ts'
import { certificateFile, FILES } from '../render/files.ts'
import { HOST_MAPS } from '../render/render-maps.ts'
import { accessGroupName } from '../model/access-group.ts'
import { aclFiles } from '../render/render-access.ts'
import { crtListsOf } from '../render/render-tls.ts'
import type { ClusterOptions } from '../model/settings.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'
import { objectChange, type WatchEvent } from './watch-event.ts'
import { runToEnd } from '../slices.ts'

const strings = (values: unknown): string[] => (Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [])
const records = (values: unknown): Record<string, unknown>[] => (Array.isArray(values) ? values.filter(isRecord) : [])

/** Keys `from <= key < to` (the reading's KeyRange: core/reading reads core/incremental, not the other way). */
type EntryRange = readonly [from: string, to: string]

export interface LikelyReads {
  snapshot: string[]
  /** Entry keys by file path (map lines, backend sections); none for a small file, loaded whole. */
  files: Map<string, string[]>
  /** Entry ranges by file path: a host's lines of a host map, which a new Ingress on the host changes together. */
  fileRanges?: Map<string, EntryRange[]>
  /** Ranges of the snapshot: a host's Ingresses in the host table, as many leaves as they fill. */
  snapshotRanges?: EntryRange[]
  /**
   * Prefixes of set indexes whose members are object keys the change reads too (a host's other
   * Ingresses, a Service's slices): loaded once the index is, as many as it holds.
   */
  memberObjects?: string[]
  /**
   * What a new Ingress reads, by its object's snapshot key, for when that key holds nothing yet:
   * the Services, slices and Secrets it names and its hosts' other Ingresses and map lines. A
   * changed Ingress reads little of it (what it had named is served already), and loading it all
   * for a 1% resync of 20,000 Ingresses evicted what the change read next (24 s instead of 2.6 s).
   */
  ifNew?: Map<string, LikelyReads>
}

/**
 * Snapshot and file keys that applying these events will read, as far as the events alone tell: their
 * objects, and the hosts, Services and Secrets their new versions name. A cold process loads
 * the paths to all of them at once, a tree level per round trip, before the engine runs and
 * discovers the rest (the old versions' hosts, say) one miss at a time.
 */
export function likelyReads(events: readonly WatchEvent[], options: Pick<ClusterOptions, 'gatewayPorts'> = {}): LikelyReads {
  return runToEnd(likelyReadSteps(events, options))
}

/**
 * likelyReads as steps, one per event (see runInSlices): a resync's finish commits a thousand
 * new Ingresses at once, and naming their reads (44 host maps each) held the thread for a tenth
 * of a second and more, which other clusters' events waited behind.
 */
export function* likelyReadSteps(events: readonly WatchEvent[], { gatewayPorts }: Pick<ClusterOptions, 'gatewayPorts'> = {}): Generator<void, LikelyReads> {
  const reads = new ReadSet()
  for (const key of [treeKey(TABLE.settings, CLUSTER_WIDE), treeKey(TABLE.defaultBackend, CLUSTER_WIDE), treeKey(TABLE.ingressClass, '')]) reads.keys.add(key)
  const ifNew = new Map<string, LikelyReads>()
  for (const event of events) {
    const change = objectChange(event)
    if ('ignore' in change) continue
    const ref =
      'remove' in change ? change.remove : change.put.status === 'object' ? { kind: change.put.object.kind, ...change.put.object.metadata } : change.put.ref
    const key = objectKey(ref)
    for (const table of [TABLE.object, TABLE.invalid, TABLE.resourceVersion, TABLE.objectRejection, TABLE.ingressWarnings]) reads.keys.add(treeKey(table, key))
    const namespace = ref.namespace ?? ''
    const object = event.object
    const spec = isRecord(object.spec) ? object.spec : {}
    if (ref.kind === 'Ingress') {
      // Its access group (source ranges) and the group's ACL files, small files loaded whole.
      const group = accessGroupName(namespace, ref.name)
      reads.keys.add(treeKey(TABLE.accessGroup, group))
      reads.keys.add(treeKey(TABLE.headerRules, group))
      reads.keys.add(treeKey(TABLE.canaryRules, group))
      // The rules' counts: one entry per distinct rule, a leaf or two.
      reads.keys.add(treeKey(TABLE.headerRuleUses, ''))
      reads.keys.add(treeKey(TABLE.canaryRuleUses, ''))
      for (const path of aclFiles(group)) reads.fileKeys(path)
      const hosts = [
        ...records(spec.rules).map((rule) => (typeof rule.host === 'string' ? rule.host : '')),
        ...records(spec.tls).flatMap((tls) => strings(tls.hosts)),
      ]
      const added = new ReadSet()
      for (const host of hosts) {
        reads.keys.add(treeKey(TABLE.host, host))
        reads.keys.add(treeKey(TABLE.hostRejections, host))
        // Its Ingresses in the host table: whole and adjacent for a host many name, what deriving it reads of them.
        reads.range(TABLE.hostIngresses, host)
        // Map entries are keyed by the host, then the host and the path: the same keys and range in each of the maps.
        const paths = `${host}/`
        const range = [paths, `${paths}\uffff`] as const
        for (const map of HOST_MAPS) {
          reads.fileKeys(map, host, paths)
          added.fileRange(map, range)
        }
      }
      // A cold cache (a large resync's finish) otherwise loads each of them by a miss, and every miss reruns the whole change.
      for (const service of backendServices(spec)) {
        added.service(namespace, service)
        added.objectsOfMembers(TABLE.serviceSlices, `${namespace}/${service}`)
      }
      for (const tls of records(spec.tls))
        if (typeof tls.secretName === 'string') added.keys.add(treeKey(TABLE.object, `Secret/${namespace}/${tls.secretName}`))
      ifNew.set(treeKey(TABLE.object, key), added.reads())
    }
    const service = ref.kind === 'Service' ? ref.name : ref.kind === 'EndpointSlice' ? serviceOfSlice(object) : undefined
    if (service !== undefined) reads.service(namespace, service)
    // A Service that comes or goes: the HTTPRoutes naming it (gateway-changes.ts).
    if (ref.kind === 'Service') reads.members(TABLE.serviceHttpRoutes, `${namespace}/${ref.name}`)
    // A ConfigMap custom-headers names: the Ingresses that read it.
    if (ref.kind === 'ConfigMap') reads.members(TABLE.headersConfigMapIngresses, `${namespace}/${ref.name}`)
    if (ref.kind === 'Secret') {
      const secret = `${namespace}/${ref.name}`
      reads.members(TABLE.secretIngresses, secret)
      reads.members(TABLE.authSecretIngresses, secret)
      reads.members(TABLE.secretHosts, secret)
      // Its lines in the HTTPS bind's crt-list and in each HTTPS port's of its own.
      for (const list of crtListsOf(gatewayPorts)) reads.fileKeys(list, certificateFile(secret))
      reads.fileKeys(certificateFile(secret))
    }
    yield
  }
  return { ...reads.reads(), ifNew }
}

/** Reads collected: snapshot keys, entry keys and ranges of files, and indexes whose members' objects are read. */
class ReadSet {
  readonly keys = new Set<string>()
  private readonly files = new Map<string, Set<string>>()
  private readonly fileRanges = new Map<string, EntryRange[]>()
  private readonly memberObjects = new Set<string>()
  private readonly snapshotRanges: EntryRange[] = []

  /** The entries of a table under one key's prefix (`table␁key␁…`). */
  range(table: Table, key: string): void {
    const from = treeKey(table, key, '')
    this.snapshotRanges.push([from, `${from}\uffff`])
  }

  /** The members of a set index. */
  members(table: Table, key: string): void {
    this.keys.add(treeKey(table, key, ''))
  }

  /** The objects the members of a set index name. */
  objectsOfMembers(table: Table, key: string): void {
    this.memberObjects.add(treeKey(table, key, ''))
  }

  fileKeys(path: string, ...entries: string[]): void {
    const set = this.files.get(path) ?? new Set()
    for (const entry of entries) set.add(entry)
    this.files.set(path, set)
  }

  fileRange(path: string, range: EntryRange): void {
    const ranges = this.fileRanges.get(path)
    if (ranges) ranges.push(range)
    else this.fileRanges.set(path, [range])
  }

  /** What applying a change that names a Service reads: its object, slices and backends. */
  service(namespace: string, service: string): void {
    // Backend names start with `ns_service_`; slice names usually with the Service's.
    this.members(TABLE.serviceBackends, `${namespace}/${service}`)
    this.members(TABLE.serviceSlices, `${namespace}/${service}`)
    for (const table of [TABLE.backend, TABLE.backendUse]) this.keys.add(treeKey(table, `${namespace}_${service}_`))
    this.keys.add(treeKey(TABLE.object, `Service/${namespace}/${service}`))
    this.keys.add(treeKey(TABLE.object, `EndpointSlice/${namespace}/${service}`))
    this.fileKeys(FILES.backends, `${namespace}_${service}_`)
  }

  reads(): LikelyReads {
    const files = new Map([...this.files].map(([path, entries]) => [path, [...entries]]))
    return { snapshot: [...this.keys], files, fileRanges: this.fileRanges, memberObjects: [...this.memberObjects], snapshotRanges: this.snapshotRanges }
  }
}

type Table = Parameters<typeof treeKey>[0]

/** The Services an Ingress's spec routes to (its default backend and its rules' paths), as written. */
function backendServices(spec: Record<string, unknown>): Set<string> {
  const backends = [
    spec.defaultBackend,
    ...records(spec.rules).flatMap((rule) => records(isRecord(rule.http) ? rule.http.paths : []).map((path) => path.backend)),
  ]
  const services = new Set<string>()
  for (const backend of backends)
    if (isRecord(backend) && isRecord(backend.service) && typeof backend.service.name === 'string') services.add(backend.service.name)
  return services
}

function serviceOfSlice(object: Record<string, unknown>): string | undefined {
  const labels = isRecord(object.metadata) && isRecord(object.metadata.labels) ? object.metadata.labels : {}
  const service = labels['kubernetes.io/service-name']
  return typeof service === 'string' ? service : undefined
}
