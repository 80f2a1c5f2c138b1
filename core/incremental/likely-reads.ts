import { isRecord, objectKey } from '../kube/objects.ts'
import { certificateFile, FILES } from '../render/files.ts'
import { HOST_MAPS } from '../render/render-maps.ts'
import { accessGroupName } from '../model/access-group.ts'
import { aclFiles } from '../render/render-access.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'
import { objectChange, type WatchEvent } from './watch-event.ts'

const strings = (values: unknown): string[] => (Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [])
const records = (values: unknown): Record<string, unknown>[] => (Array.isArray(values) ? values.filter(isRecord) : [])

export interface LikelyReads {
  snapshot: string[]
  /** Entry keys by file path (map lines, backend sections); none for a small file, loaded whole. */
  files: Map<string, string[]>
}

/**
 * Snapshot and file keys that applying these events will read, as far as the events alone tell: their
 * objects, and the hosts, Services and Secrets their new versions name. A cold process loads
 * the paths to all of them at once, a tree level per round trip, before the engine runs and
 * discovers the rest (the old versions' hosts, say) one miss at a time.
 */
export function likelyReads(events: readonly WatchEvent[]): LikelyReads {
  const keys = new Set([treeKey(TABLE.settings, CLUSTER_WIDE), treeKey(TABLE.defaultBackend, CLUSTER_WIDE), treeKey(TABLE.ingressClass, '')])
  const files = new Map<string, Set<string>>()
  const members = (table: Parameters<typeof treeKey>[0], key: string) => keys.add(treeKey(table, key, ''))
  const fileKeys = (path: string, ...entries: string[]) => {
    const set = files.get(path) ?? new Set()
    for (const entry of entries) set.add(entry)
    files.set(path, set)
  }
  for (const event of events) {
    const change = objectChange(event)
    if ('ignore' in change) continue
    const ref =
      'remove' in change ? change.remove : change.put.status === 'object' ? { kind: change.put.object.kind, ...change.put.object.metadata } : change.put.ref
    const key = objectKey(ref)
    for (const table of [TABLE.object, TABLE.invalid, TABLE.resourceVersion, TABLE.objectRejection, TABLE.ingressWarnings]) keys.add(treeKey(table, key))
    const namespace = ref.namespace ?? ''
    const object = event.object
    const spec = isRecord(object.spec) ? object.spec : {}
    if (ref.kind === 'Ingress') {
      // Its access group (source ranges) and the group's ACL files, small files loaded whole.
      const group = accessGroupName(namespace, ref.name)
      keys.add(treeKey(TABLE.accessGroup, group))
      keys.add(treeKey(TABLE.headerRules, group))
      keys.add(treeKey(TABLE.canaryRules, group))
      // The rules' counts: one entry per distinct rule, a leaf or two.
      keys.add(treeKey(TABLE.headerRuleUses, ''))
      keys.add(treeKey(TABLE.canaryRuleUses, ''))
      for (const path of aclFiles(group)) fileKeys(path)
      const hosts = [
        ...records(spec.rules).map((rule) => (typeof rule.host === 'string' ? rule.host : '')),
        ...records(spec.tls).flatMap((tls) => strings(tls.hosts)),
      ]
      for (const host of hosts) {
        keys.add(treeKey(TABLE.host, host))
        keys.add(treeKey(TABLE.hostRejections, host))
        members(TABLE.hostIngresses, host)
        // Map entries are keyed by the host, then the host and the path.
        for (const map of HOST_MAPS) fileKeys(map, host, `${host}/`)
      }
    }
    const service = ref.kind === 'Service' ? ref.name : ref.kind === 'EndpointSlice' ? serviceOfSlice(object) : undefined
    if (service !== undefined) {
      // Backend names start with `ns_service_`; slice names usually with the Service's.
      members(TABLE.serviceBackends, `${namespace}/${service}`)
      members(TABLE.serviceSlices, `${namespace}/${service}`)
      for (const table of [TABLE.backend, TABLE.backendUse]) keys.add(treeKey(table, `${namespace}_${service}_`))
      keys.add(treeKey(TABLE.object, `Service/${namespace}/${service}`))
      keys.add(treeKey(TABLE.object, `EndpointSlice/${namespace}/${service}`))
      fileKeys(FILES.backends, `${namespace}_${service}_`)
    }
    // A ConfigMap custom-headers names: the Ingresses that read it.
    if (ref.kind === 'ConfigMap') members(TABLE.headersConfigMapIngresses, `${namespace}/${ref.name}`)
    if (ref.kind === 'Secret') {
      const secret = `${namespace}/${ref.name}`
      members(TABLE.secretIngresses, secret)
      members(TABLE.authSecretIngresses, secret)
      members(TABLE.secretHosts, secret)
      fileKeys(FILES.crtList, certificateFile(secret))
      fileKeys(certificateFile(secret))
    }
  }
  return { snapshot: [...keys], files: new Map([...files].map(([path, entries]) => [path, [...entries]])) }
}

function serviceOfSlice(object: Record<string, unknown>): string | undefined {
  const labels = isRecord(object.metadata) && isRecord(object.metadata.labels) ? object.metadata.labels : {}
  const service = labels['kubernetes.io/service-name']
  return typeof service === 'string' ? service : undefined
}
