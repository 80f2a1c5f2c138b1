import type { ResourceType } from './resources.ts'

/** The discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/{group}/{version}`) for the served types; undefined for any other path. */
export function discoveryDocument(pathname: string, resourceTypes: readonly ResourceType[]): object | undefined {
  const trimmed = pathname.replace(/\/+$/, '')
  if (trimmed === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] }
  const versions = new Map<string, Set<string>>()
  for (const { group, version } of resourceTypes) if (group) versions.set(group, (versions.get(group) ?? new Set()).add(version))
  if (trimmed === '/apis') {
    const groups = [...versions].map(([name, set]) => ({
      name,
      versions: [...set].map((version) => ({ groupVersion: `${name}/${version}`, version })),
      preferredVersion: { groupVersion: `${name}/${[...set][0]}`, version: [...set][0] },
    }))
    return { kind: 'APIGroupList', apiVersion: 'v1', groups }
  }
  const match = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(trimmed)
  if (!match) return undefined
  const [group, version] = match[1] ? ['', match[1]] : [match[2]!, match[3]!]
  const types = resourceTypes.filter((type) => type.group === group && type.version === version)
  if (types.length === 0) return undefined
  const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']
  const resources = types.flatMap((type) => [
    { name: type.plural, singularName: type.kind.toLowerCase(), namespaced: type.namespaced, kind: type.kind, verbs },
    ...(type.status
      ? [{ name: `${type.plural}/status`, singularName: '', namespaced: type.namespaced, kind: type.kind, verbs: ['get', 'patch', 'update'] }]
      : []),
  ])
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources }
}
