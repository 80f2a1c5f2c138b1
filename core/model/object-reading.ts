import { asksNothing } from '../annotations/features.ts'
import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import type { ClusterState } from './cluster-state.ts'

type StoredSecret = ReturnType<ClusterState['secret']>

/** The reading of an Ingress that asks nothing of such an object (most Ingresses): one, shared, so frozen. */
export const NOTHING_ASKED: { readonly none: true } = Object.freeze({ none: true })

/**
 * A reading of an Ingress against the object one of its annotations names (`namespace/name`, from
 * `keyOf`), as the cluster holds it now (`lookup`): `judge` runs again only when the Ingress or
 * that object changed (objects are immutable, so identity says so).
 */
export function againstObject<O, R>(
  keyOf: (ingress: Ingress) => string | undefined,
  lookup: (state: ClusterState, namespace: string, name: string) => O | undefined,
  judge: (ingress: Ingress, key: string | undefined, object: O | undefined) => R,
): (ingress: Ingress, state: ClusterState) => R {
  const judged = new WeakMap<Ingress, { object: unknown; reading: R }>()
  const lookupAt = (state: ClusterState, key: string) => {
    const [namespace = '', name = ''] = key.split('/')
    return lookup(state, namespace, name)
  }
  return (ingress, state) => {
    const key = keyOf(ingress)
    const object = key === undefined ? undefined : lookupAt(state, key)
    const found = judged.get(ingress)
    if (found && found.object === object) return found.reading
    const reading = judge(ingress, key, object)
    judged.set(ingress, { object, reading })
    return reading
  }
}

/**
 * `againstObject` for the Secret an annotation names (basic authentication's users, the client and
 * backend CAs). An Ingress that asks for no feature (most) asks nothing of a Secret, which each
 * `judge` answers NOTHING_ASKED: answered so at once, with no reading kept for it.
 */
export function againstSecret<R>(
  secretOf: (ingress: Ingress) => string | undefined,
  judge: (ingress: Ingress, key: string | undefined, secret: StoredSecret) => R | typeof NOTHING_ASKED,
): (ingress: Ingress, state: ClusterState) => R | typeof NOTHING_ASKED {
  const read = againstObject(secretOf, (state, namespace, name) => state.secret(namespace, name), judge)
  return (ingress, state) => (asksNothing(ingressAnnotations(ingress).rendered) ? NOTHING_ASKED : read(ingress, state))
}
