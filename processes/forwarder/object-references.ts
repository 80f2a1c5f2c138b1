import { readAnnotations } from '../../core/annotations/read-annotations.ts'
import type { KubeObject } from '../../functions/adapters/kubernetes/kube-object.ts'

/**
 * The objects an Ingress names, by key: `Secret/ns/name` for each `spec.tls[].secretName`
 * (always in the Ingress's namespace), for the Secret of users its basic authentication names,
 * and for the CA Secret that verifies its backends, in any spelling (`auth-secret`,
 * `basic-auth-secret`, `proxy-ssl-secret`, `server-ca`, …; its own namespace unless it names
 * another); `ConfigMap/ns/name` for the ConfigMap its custom-headers names, in its own namespace
 * only (the engine reads no other namespace's: another tenant's ConfigMap is never sent).
 */
export function referencedObjects(ingress: KubeObject | undefined): Set<string> {
  if (ingress?.kind === 'Gateway') return gatewayCertificates(ingress)
  const namespace = ingress?.metadata?.namespace
  const tls = (ingress?.spec as { tls?: { secretName?: unknown }[] } | undefined)?.tls
  const keys = new Set<string>()
  if (!namespace) return keys
  if (Array.isArray(tls))
    for (const entry of tls) if (typeof entry?.secretName === 'string' && entry.secretName) keys.add(`Secret/${namespace}/${entry.secretName}`)
  const annotations = ingress?.metadata?.annotations
  const features = annotations && typeof annotations === 'object' ? readAnnotations(annotations).features : {}
  for (const named of [features['auth-secret'], features['proxy-ssl-secret']]) if (named) keys.add(`Secret/${named.namespace ?? namespace}/${named.name}`)
  const headers = features['custom-headers']
  if (headers && (headers.namespace ?? namespace) === namespace) keys.add(`ConfigMap/${namespace}/${headers.name}`)
  return keys
}

/**
 * The Secrets a Gateway's HTTPS listeners name: their certificateRefs, of its own namespace or
 * another (the engine serves that one only while a ReferenceGrant there permits it).
 */
function gatewayCertificates(gateway: KubeObject): Set<string> {
  const namespace = gateway.metadata?.namespace
  const listeners = (gateway.spec as { listeners?: { tls?: { certificateRefs?: { kind?: unknown; namespace?: unknown; name?: unknown }[] } }[] } | undefined)
    ?.listeners
  const keys = new Set<string>()
  if (!namespace || !Array.isArray(listeners)) return keys
  for (const listener of listeners)
    for (const ref of listener?.tls?.certificateRefs ?? [])
      if (typeof ref?.name === 'string' && (ref.kind ?? 'Secret') === 'Secret')
        keys.add(`Secret/${typeof ref.namespace === 'string' ? ref.namespace : namespace}/${ref.name}`)
  return keys
}

/** Which objects some Ingress (or Gateway) names, counted per Ingress, so an object is in use exactly while one of them names it. */
export class ObjectReferences {
  private readonly byIngress = new Map<string, Set<string>>()
  private readonly users = new Map<string, number>()

  has(key: string): boolean {
    return (this.users.get(key) ?? 0) > 0
  }

  /** Records what an Ingress names now (undefined: it is gone); answers the objects that came into use and the ones that went out of use. */
  setIngress(ingressKey: string, ingress: KubeObject | undefined): { added: string[]; removed: string[] } {
    const before = this.byIngress.get(ingressKey) ?? new Set<string>()
    const after = referencedObjects(ingress)
    if (after.size > 0) this.byIngress.set(ingressKey, after)
    else this.byIngress.delete(ingressKey)
    const added: string[] = []
    const removed: string[] = []
    for (const key of after) if (!before.has(key) && this.count(key, +1) === 1) added.push(key)
    for (const key of before) if (!after.has(key) && this.count(key, -1) === 0) removed.push(key)
    return { added, removed }
  }

  clear(): void {
    this.byIngress.clear()
    this.users.clear()
  }

  private count(key: string, delta: number): number {
    const count = (this.users.get(key) ?? 0) + delta
    if (count > 0) this.users.set(key, count)
    else this.users.delete(key)
    return count
  }
}
