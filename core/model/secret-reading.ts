import type { Ingress } from '../kube/ingress.ts'
import type { ClusterState } from './cluster-state.ts'

type StoredSecret = ReturnType<ClusterState['secret']>

/**
 * A reading of an Ingress against the Secret one of its annotations names (`namespace/name`, from
 * `secretOf`), as the cluster holds it now: `judge` runs again only when the Ingress or that Secret
 * changed (objects are immutable, so identity says so).
 */
export function againstSecret<R>(
  secretOf: (ingress: Ingress) => string | undefined,
  judge: (ingress: Ingress, key: string | undefined, secret: StoredSecret) => R,
): (ingress: Ingress, state: ClusterState) => R {
  const judged = new WeakMap<Ingress, { secret: unknown; reading: R }>()
  return (ingress, state) => {
    const key = secretOf(ingress)
    const [namespace = '', name = ''] = key?.split('/') ?? []
    const secret = key === undefined ? undefined : state.secret(namespace, name)
    const found = judged.get(ingress)
    if (found && found.secret === secret) return found.reading
    const reading = judge(ingress, key, secret)
    judged.set(ingress, { secret, reading })
    return reading
  }
}
