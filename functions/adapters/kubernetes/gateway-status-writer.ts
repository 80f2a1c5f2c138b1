import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node'
import { GATEWAY_API } from '../../../core/kube/gateway-class.ts'
import { GATEWAY_STATUS_RESOURCES, type GatewayApiStatus, type GatewayObjectStatus, type GatewayStatusChange } from '../../../core/kube/gateway-status.ts'
import type { GatewayStatusResult } from '../../../core/ports/cluster-writer.ts'
import { canonicalJson } from '../../../core/status/canonical-json.ts'
import { nextGatewayObjectStatus, type ReadObject } from '../../../core/status/carry-gateway-status.ts'
import { isConflict, isNotFound, kubeFailure } from './kube-errors.ts'

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)

const TIMES: ReadonlySet<string> = new Set(['lastTransitionTime'])

/** Reads (and writes) of one object before giving up on one that keeps changing under us. */
const ATTEMPTS = 3

/**
 * Writes the Gateway API's status object by object: read, merge (nextGatewayObjectStatus),
 * merge-patch `.../status` naming the resourceVersion read, so a write in between makes it 409
 * and it is decided again on a fresh read. What it computed for an object and found written is
 * remembered, so an unchanged status costs no request at the next commit. A change (what changed
 * since a status written) is written the same way, and what it does not list stays remembered.
 */
export function gatewayStatusWriter(kubeConfig: KubeConfig): (status: GatewayApiStatus | GatewayStatusChange) => Promise<GatewayStatusResult> {
  const api = kubeConfig.makeApiClient(CustomObjectsApi)
  let settled = new Map<string, string>()
  const place = (object: GatewayObjectStatus) => {
    const { version, plural } = GATEWAY_STATUS_RESOURCES[object.kind]
    return { group: GATEWAY_API, version, plural, name: object.name, ...('namespace' in object ? { namespace: object.namespace } : {}) }
  }
  const read = (object: GatewayObjectStatus) => {
    const where = place(object)
    return (
      where.namespace === undefined ? api.getClusterCustomObject(where) : api.getNamespacedCustomObject({ ...where, namespace: where.namespace })
    ) as Promise<ReadObject & { metadata?: { resourceVersion?: string } }>
  }
  const patch = (object: GatewayObjectStatus, resourceVersion: string, status: Record<string, unknown>) => {
    const where = place(object)
    const body = { metadata: { resourceVersion }, status }
    return where.namespace === undefined
      ? api.patchClusterCustomObjectStatus({ ...where, body }, MERGE_PATCH)
      : api.patchNamespacedCustomObjectStatus({ ...where, namespace: where.namespace, body }, MERGE_PATCH)
  }
  return async (status) => {
    const result: GatewayStatusResult = { written: 0, unchanged: 0, missing: 0, errors: [] }
    // A whole status replaces what is remembered; a change updates it.
    const change = 'removed' in status
    const next = change ? settled : new Map<string, string>()
    if (change) for (const key of status.removed) next.delete(key)
    for (const object of status.objects) {
      const key = objectKey(object)
      // Times left out: the same status computed from a later commit is the same status.
      const computed = canonicalJson(object, TIMES)
      if (settled.get(key) === computed) {
        next.set(key, computed)
        result.unchanged++
        continue
      }
      const outcome = await writeOne(object, status.controllerName)
      if (outcome === 'written' || outcome === 'unchanged') next.set(key, computed)
      else next.delete(key)
      if (outcome === 'written') result.written++
      else if (outcome === 'unchanged') result.unchanged++
      else if (outcome === 'missing') result.missing++
      else result.errors.push(`${key}: ${outcome.error}`)
    }
    settled = next
    return result
  }

  async function writeOne(object: GatewayObjectStatus, controllerName: string): Promise<'written' | 'unchanged' | 'missing' | { error: string }> {
    let last = ''
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const current = await read(object)
        const status = nextGatewayObjectStatus(object, current, controllerName)
        if (!status) return 'unchanged'
        await patch(object, current.metadata?.resourceVersion ?? '', status)
        return 'written'
      } catch (error) {
        if (isNotFound(error)) return 'missing'
        if (!isConflict(error)) return { error: kubeFailure(error).message }
        last = kubeFailure(error).message
      }
    }
    return { error: `still changing under us after ${ATTEMPTS} attempts (${last})` }
  }
}

const objectKey = (object: GatewayObjectStatus) =>
  'namespace' in object ? `${object.kind}/${object.namespace}/${object.name}` : `${object.kind}/${object.name}`
