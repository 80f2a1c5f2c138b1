import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import type { ConfigMap } from '../kube/config-map.ts'
import type { Ingress } from '../kube/ingress.ts'
import { readHeaders, type IngressHeaders } from './header-rules.ts'
import type { ClusterState } from './cluster-state.ts'
import { annotationSources, ingressAnnotations, type AnnotationWarning } from './ingress-annotations.ts'
import { describeIngress } from './ingress-order.ts'
import { againstObject } from './object-reading.ts'

/**
 * custom-headers: the response headers a ConfigMap holds (`data`: name → value), set on the
 * Ingress's responses as response-set-header would (ingress-nginx: more_set_headers). Only a
 * ConfigMap in the Ingress's own namespace is read, as ingress-nginx documents: another
 * namespace's belongs to another tenant. Headers restrict no access, so a ConfigMap hapedge cannot
 * read leaves the Ingress served without them, with a warning (ingress-nginx answers 503 instead).
 * ingress-nginx also requires each name in its controller's global-allowed-response-headers;
 * hapedge has no such list, as an Ingress may set any response header with response-set-header.
 */

/** The ConfigMap custom-headers names, `namespace/name` (its own namespace unless it names another). */
export function namedHeadersConfigMap(ingress: Ingress): string | undefined {
  const ref = ingressAnnotations(ingress).rendered['custom-headers']
  return ref && `${ref.namespace ?? ingress.metadata.namespace}/${ref.name}`
}

/** The ConfigMap an Ingress's headers are read from: the one it names, when in its own namespace (indexed, so its change re-derives the Ingress). */
export function headersConfigMapOf(ingress: Ingress): string | undefined {
  const key = namedHeadersConfigMap(ingress)
  return key?.startsWith(`${ingress.metadata.namespace}/`) ? key : undefined
}

/**
 * An Ingress's header rules from its annotations and its custom-headers ConfigMap as the cluster
 * holds it now, with what is not done as written (the annotations' own notices are
 * ingressAnnotations'; these add the ConfigMap's). Read again only when the Ingress or the ConfigMap changed.
 */
export const ingressHeaders = againstObject(headersConfigMapOf, (state, namespace, name) => state.headersConfigMap(namespace, name), judge)

function judge(ingress: Ingress, key: string | undefined, configMap: ConfigMap | undefined): IngressHeaders {
  const { rendered } = ingressAnnotations(ingress)
  const { readFrom } = annotationSources(ingress)
  const annotations = readFrom['custom-headers'] ?? []
  const named = namedHeadersConfigMap(ingress)
  const notices: AnnotationNotice[] = []
  const unread =
    named !== undefined && key === undefined
      ? `ConfigMap ${named} is in another namespace than the Ingress: only a ConfigMap of the Ingress's own namespace is read (as ingress-nginx does), so its headers are not set`
      : key !== undefined && configMap === undefined
        ? `ConfigMap ${key} is not known to hapedge (missing, malformed, or not yet sent: the forwarder sends a ConfigMap once an Ingress names it, and a snapshot written before layout 18 has it from the next full resync): the routes are served without its headers`
        : undefined
  if (unread !== undefined) for (const annotation of annotations) notices.push({ annotation, reason: unread })
  const custom = Object.entries(configMap?.data ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ({ name, value }))
  const read = readHeaders(rendered, (feature) => readFrom[feature] ?? [], custom)
  return { headers: read.headers, notices: [...notices, ...read.notices] }
}

/** What an Ingress's custom-headers ConfigMap adds to its annotations' warnings (none unless it names one). */
export function customHeaderWarnings(ingress: Ingress, state: ClusterState): AnnotationWarning[] {
  if (namedHeadersConfigMap(ingress) === undefined) return []
  const { warnings } = ingressAnnotations(ingress)
  const told = new Set(warnings.map(({ annotation, reason }) => `${annotation}\n${reason}`))
  const object = describeIngress(ingress)
  const added = new Map<string, AnnotationWarning>()
  for (const { annotation, reason } of ingressHeaders(ingress, state).notices) {
    const key = `${annotation}\n${reason}`
    if (!told.has(key)) added.set(key, { object, annotation, reason })
  }
  return [...added.values()]
}
