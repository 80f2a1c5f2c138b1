import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node'
import {
  HAPROXYCFG,
  HAPROXYCFG_API_VERSION,
  type HAProxyCfg,
  type HAProxyCfgSpec,
  type HAProxyCfgStatus,
  type ResourceTarget,
} from '../../../core/kube/haproxycfg.ts'
import { isNotFound } from './kube-errors.ts'

/** The three calls the status writer makes on an `HAProxyCfg`; each throws the client's ApiException on refusal. */
export interface HAProxyCfgClient {
  /** The resource, or undefined when it does not exist. */
  get(target: ResourceTarget): Promise<HAProxyCfg | undefined>
  /** Creates it with a spec and no status (a create ignores status: it is a subresource). */
  create(target: ResourceTarget, spec: HAProxyCfgSpec): Promise<HAProxyCfg>
  /** Replaces `.status` by a merge patch that names the resourceVersion read, so any write since then makes it 409. */
  patchStatus(target: ResourceTarget, resourceVersion: string, status: HAProxyCfgStatus): Promise<HAProxyCfg>
}

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)

export function haproxyCfgClient(kubeConfig: KubeConfig): HAProxyCfgClient {
  const api = kubeConfig.makeApiClient(CustomObjectsApi)
  const place = ({ namespace, name }: ResourceTarget) => ({ group: HAPROXYCFG.group, version: HAPROXYCFG.version, plural: HAPROXYCFG.plural, namespace, name })
  return {
    async get(target) {
      try {
        return (await api.getNamespacedCustomObject(place(target))) as HAProxyCfg
      } catch (error) {
        if (isNotFound(error)) return undefined
        throw error
      }
    },
    async create(target, spec) {
      const { name: _, ...collection } = place(target)
      const body = { apiVersion: HAPROXYCFG_API_VERSION, kind: HAPROXYCFG.kind, metadata: { name: target.name, namespace: target.namespace }, spec }
      return (await api.createNamespacedCustomObject({ ...collection, body })) as HAProxyCfg
    },
    async patchStatus(target, resourceVersion, status) {
      return (await api.patchNamespacedCustomObjectStatus({ ...place(target), body: { metadata: { resourceVersion }, status } }, MERGE_PATCH)) as HAProxyCfg
    },
  }
}
