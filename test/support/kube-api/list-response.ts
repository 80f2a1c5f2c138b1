import { expired, KubeError } from './kube-error.ts'
import type { KubeStorage } from './kube-storage.ts'
import { apiVersionOf, type ResourceType } from './resources.ts'
import { fieldSelector, labelSelector, type KubeObject } from './selectors.ts'

/**
 * A LIST answer: `{Kind}List` with the resourceVersion it reflects, filtered by selectors, paged
 * by `limit`/`continue` (a token from before a compaction is 410). Built-in kinds leave
 * `apiVersion` and `kind` off each item, as the real server does.
 */
export function listResponse(storage: KubeStorage, resource: ResourceType, namespace: string | undefined, query: URLSearchParams) {
  const current = storage.resourceVersion
  const match = query.get('resourceVersionMatch')
  const asked = query.get('resourceVersion')
  if (match === 'Exact' && asked !== String(current)) throw expired(asked ?? '', storage.oldestResourceVersion)
  const labels = labelSelector(query.get('labelSelector'))
  const fields = fieldSelector(query.get('fieldSelector'))
  let items = storage.list(resource, namespace).filter((object) => labels(object) && fields(object))
  let listVersion = current
  const token = query.get('continue')
  if (token) {
    const { after, resourceVersion } = JSON.parse(Buffer.from(token, 'base64url').toString()) as { after: string; resourceVersion: number }
    if (resourceVersion < storage.oldestResourceVersion)
      throw new KubeError(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result.')
    items = items.filter((object) => placeKey(object) > after)
    listVersion = resourceVersion
  }
  const limit = Number(query.get('limit') ?? 0)
  let next: string | undefined
  if (limit > 0 && items.length > limit) {
    items = items.slice(0, limit)
    next = Buffer.from(JSON.stringify({ after: placeKey(items.at(-1)!), resourceVersion: listVersion })).toString('base64url')
  }
  const shown = resource.builtIn ? items.map(({ apiVersion: _apiVersion, kind: _kind, ...rest }) => rest) : items
  return {
    apiVersion: apiVersionOf(resource),
    kind: `${resource.kind}List`,
    metadata: { resourceVersion: String(listVersion), ...(next ? { continue: next } : {}) },
    items: shown,
  }
}

const placeKey = (object: KubeObject) => `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`
