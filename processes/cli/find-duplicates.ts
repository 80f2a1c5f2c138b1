import { isRecord } from '../../core/kube/objects.ts'

/**
 * Objects that several inputs define: the last one read replaces the others (as a sequence of
 * `kubectl apply` would), so the output depends on the order of `--in`; each is named with its
 * sources so that it never happens silently.
 */
export function findDuplicates(objects: readonly { object: unknown; source: string }[]): string[] {
  const sources = new Map<string, string[]>()
  for (const { object, source } of objects) {
    if (!isRecord(object) || !isRecord(object.metadata)) continue
    const { kind } = object
    const { namespace, name } = object.metadata
    if (typeof kind !== 'string' || typeof name !== 'string' || name === '') continue
    const identity = typeof namespace === 'string' ? `${kind} ${namespace}/${name}` : `${kind} ${name}`
    sources.set(identity, [...(sources.get(identity) ?? []), source])
  }
  return [...sources]
    .filter(([, where]) => where.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([identity, where]) => `${JSON.stringify(identity).slice(1, -1)}: defined more than once (${where.join(' and ')}); the last one read is used`)
}
