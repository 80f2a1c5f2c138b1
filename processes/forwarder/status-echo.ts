import { canonicalJson } from '../../core/status/canonical-json.ts'
import type { KubeObject } from '../../functions/adapters/kubernetes/kube-object.ts'

/**
 * Whether a watched object differs from the one last seen only in `status` and
 * `metadata.resourceVersion`: what a status write (hapedge's own `--write-status` or the
 * function's, another controller's) comes back as. The function reads no kind's status, so
 * such a change is not sent: posted, it would commit a generation that changes nothing but the
 * recorded resourceVersion, and have the Gateway API status computed and compared again.
 */
export function onlyStatusChanged(previous: KubeObject | undefined, next: KubeObject): boolean {
  return previous !== undefined && canonicalJson(withoutStatus(previous)) === canonicalJson(withoutStatus(next))
}

function withoutStatus(object: KubeObject): KubeObject {
  const { status: _status, ...rest } = object
  const { resourceVersion: _resourceVersion, ...metadata } = object.metadata ?? {}
  return { ...rest, metadata }
}
