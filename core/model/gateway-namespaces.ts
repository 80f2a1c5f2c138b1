import type { Gateway, Listener } from '../kube/gateway.ts'
import type { Namespace } from '../kube/namespace.ts'
import { readLabelSelector, selects } from './label-selector.ts'

/** The namespaces a listener admits routes of (`allowedRoutes.namespaces.from`): `Same` by default. */
export const namespacesFrom = (listener: Listener) => listener.allowedRoutes?.namespaces?.from ?? 'Same'

/** The `from` values hapedge honours. */
export const HONOURED_FROM: ReadonlySet<string> = new Set(['Same', 'All', 'Selector'])

/** A `Selector` listener's selector, or why it selects nothing. */
export const listenerSelector = (listener: Listener) => readLabelSelector(listener.allowedRoutes?.namespaces?.selector)

/**
 * Why a listener does not admit routes of `routeNamespace`, if it does not. `namespace` looks a
 * Namespace up by name; absent, a `Selector` admits every namespace: the hosts index, which
 * Namespace labels must not change (the verdict, which reads them, decides).
 */
export function namespaceRefusal(
  listener: Listener,
  gateway: Gateway,
  routeNamespace: string,
  namespace?: (name: string) => Namespace | undefined,
): string | undefined {
  const from = namespacesFrom(listener)
  if (from === 'All') return undefined
  if (from === 'Same')
    return routeNamespace === gateway.metadata.namespace
      ? undefined
      : `allowedRoutes admits routes of namespace ${gateway.metadata.namespace} only (NotAllowedByListeners)`
  if (!HONOURED_FROM.has(from)) return `allowedRoutes.namespaces.from ${from} is not honoured by hapedge, so it admits no route (NotAllowedByListeners)`
  if (!namespace) return undefined
  const read = listenerSelector(listener)
  if ('invalid' in read) return `allowedRoutes.namespaces.selector ${read.invalid}, so it admits no route (NotAllowedByListeners)`
  const found = namespace(routeNamespace)
  if (!found)
    return `allowedRoutes.namespaces.selector: Namespace ${routeNamespace} is not known to hapedge, so its labels select nothing (NotAllowedByListeners)`
  return selects(read.selector, found.metadata.labels ?? {})
    ? undefined
    : `allowedRoutes.namespaces.selector does not select Namespace ${routeNamespace} (NotAllowedByListeners)`
}
