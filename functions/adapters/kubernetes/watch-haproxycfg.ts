import type { KubeConfig } from '@kubernetes/client-node'
import { HAPROXYCFG, HAPROXYCFG_API_VERSION, type ResourceTarget } from '../../../core/kube/haproxycfg.ts'
import { pointerOf, type StatusPointer } from '../../../core/status/status-pointer.ts'
import { DEFAULT_BACKOFF, type Backoff } from './backoff.ts'
import type { KubeObject } from './kube-object.ts'
import { ResourceWatch } from './resource-watch.ts'

export interface FollowOptions {
  /** Told of each failed list or watch (and of a callback that threw); the follower retries on its own. */
  log?: (line: string) => void
  /** Backoff between failed lists and watches (the forwarder's default). */
  backoff?: Backoff
}

export interface Following {
  stop(): void
}

/**
 * Follows one `HAProxyCfg` for an agent, with the forwarder's list-and-watch (resume a dropped
 * watch where it stopped, list again after a 410 Expired, back off on failures), calling
 * `onGeneration` whenever its status names another generation or manifest. Only a trigger: the
 * agent verifies everything against HEAD.
 */
export function followHaproxyCfg(
  kubeConfig: KubeConfig,
  target: ResourceTarget,
  onGeneration: (pointer: StatusPointer) => void,
  options: FollowOptions = {},
): Following {
  const log = options.log ?? (() => undefined)
  let last: string | undefined
  const report = (object: KubeObject) => {
    const pointer = pointerOf(object)
    if (!pointer || `${pointer.generation}/${pointer.manifest}` === last) return
    last = `${pointer.generation}/${pointer.manifest}`
    try {
      onGeneration(pointer)
    } catch (error) {
      log(`HAProxyCfg ${target.namespace}/${target.name}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const resource = {
    apiVersion: HAPROXYCFG_API_VERSION,
    kind: HAPROXYCFG.kind,
    path: `/apis/${HAPROXYCFG.group}/${HAPROXYCFG.version}/namespaces/${encodeURIComponent(target.namespace)}/${HAPROXYCFG.plural}`,
    fieldSelector: `metadata.name=${target.name}`,
  }
  const watch = new ResourceWatch(
    kubeConfig,
    resource,
    { listed: (items) => items.forEach(report), changed: (type, object) => type !== 'DELETED' && report(object), log },
    options.backoff ?? DEFAULT_BACKOFF,
  )
  void watch.list('start').then(() => watch.start())
  return { stop: () => void watch.stop() }
}
