import { CustomObjectsApi, Watch, type KubeConfig } from '@kubernetes/client-node'
import { HAPROXYCFG, type ResourceTarget } from '../../core/status/haproxycfg-resource.ts'
import { pointerOf, type StatusPointer } from '../../core/status/status-pointer.ts'

export interface FollowOptions {
  /** Told of each failed list or watch (and of a callback that threw) before the follower retries. */
  onError?: (error: unknown) => void
  /** The wait before retrying after a failure, doubled per failure in a row up to `maxRetryMs` (default 1 s, 30 s). */
  retryMs?: number
  maxRetryMs?: number
  /** How long the API server keeps one watch open before ending it cleanly (default 5 to 10 minutes). */
  watchSeconds?: number
}

export interface Following {
  stop(): void
}

/** How one watch ended: cleanly (resume from the last resourceVersion), or with the history gone (list again). */
type WatchEnd = { expired: boolean; delivered: boolean }

/**
 * Follows one `HAProxyCfg` for an agent: list it, then watch it from the list's resourceVersion;
 * resume a dropped watch where it stopped, list again when the server has compacted past it
 * (410 Expired), and retry failures with backoff. Calls `onGeneration` whenever the status names
 * another generation or manifest. Only a trigger: the agent verifies everything against HEAD.
 */
export function followHaproxyCfg(kubeConfig: KubeConfig, target: ResourceTarget, onGeneration: (pointer: StatusPointer) => void, options: FollowOptions = {}): Following {
  const follower = new HaproxyCfgFollower(kubeConfig, target, onGeneration, options)
  void follower.run()
  return { stop: () => follower.stop() }
}

class HaproxyCfgFollower {
  private readonly api: CustomObjectsApi
  private readonly watch: Watch
  private readonly fieldSelector: string
  private resourceVersion = ''
  private last: string | undefined
  private stopped = false
  private abort: (() => void) | undefined
  private wake: (() => void) | undefined

  constructor(
    kubeConfig: KubeConfig,
    private readonly target: ResourceTarget,
    private readonly onGeneration: (pointer: StatusPointer) => void,
    private readonly options: FollowOptions,
  ) {
    this.api = kubeConfig.makeApiClient(CustomObjectsApi)
    this.watch = new Watch(kubeConfig)
    this.fieldSelector = `metadata.name=${target.name}`
  }

  stop(): void {
    this.stopped = true
    this.abort?.()
    this.wake?.()
  }

  async run(): Promise<void> {
    let failures = 0
    while (!this.stopped) {
      try {
        if (!this.resourceVersion) await this.list()
        const end = await this.watchOnce()
        if (end.expired) this.resourceVersion = ''
        // A watch that ends before it says anything is not progress: back off rather than spin.
        failures = end.delivered || end.expired ? 0 : failures + 1
      } catch (error) {
        if (this.stopped) return
        if ((error as { statusCode?: number }).statusCode === 410) {
          this.resourceVersion = ''
          continue
        }
        this.options.onError?.(error)
        failures++
      }
      if (failures > 0) await this.sleep(Math.min((this.options.retryMs ?? 1000) * 2 ** (failures - 1), this.options.maxRetryMs ?? 30_000))
    }
  }

  private async list(): Promise<void> {
    const { group, version, plural } = HAPROXYCFG
    const list = (await this.api.listNamespacedCustomObject({ group, version, plural, namespace: this.target.namespace, fieldSelector: this.fieldSelector })) as {
      items?: unknown[]
      metadata?: { resourceVersion?: string }
    }
    for (const item of list.items ?? []) this.report(item)
    this.resourceVersion = list.metadata?.resourceVersion ?? ''
  }

  private watchOnce(): Promise<WatchEnd> {
    const path = `/apis/${HAPROXYCFG.group}/${HAPROXYCFG.version}/namespaces/${encodeURIComponent(this.target.namespace)}/${HAPROXYCFG.plural}`
    const seconds = this.options.watchSeconds ?? 300 + Math.floor(Math.random() * 300)
    const query = { fieldSelector: this.fieldSelector, resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: seconds }
    const end: WatchEnd = { expired: false, delivered: false }
    let failure: unknown
    return new Promise<WatchEnd>((resolve, reject) => {
      const onEvent = (type: string, object: { code?: number; metadata?: { resourceVersion?: string } }) => {
        end.delivered = true
        if (type === 'ERROR') {
          if (object.code === 410) end.expired = true
          else failure = Object.assign(new Error(`watch of ${this.describe()}: ${JSON.stringify(object)}`), { statusCode: object.code })
          return
        }
        if (object.metadata?.resourceVersion) this.resourceVersion = object.metadata.resourceVersion
        if (type === 'ADDED' || type === 'MODIFIED') this.report(object)
      }
      const onDone = (error: unknown) => {
        this.abort = undefined
        if (error ?? failure) reject(error ?? failure)
        else resolve(end)
      }
      this.watch.watch(path, query, onEvent, onDone).then(
        (controller) => {
          if (this.stopped) controller.abort()
          else this.abort = () => controller.abort()
        },
        (error: unknown) => onDone(error),
      )
    })
  }

  private report(object: unknown): void {
    const pointer = pointerOf(object)
    if (!pointer) return
    const key = `${pointer.generation}/${pointer.manifest}`
    if (key === this.last) return
    this.last = key
    try {
      this.onGeneration(pointer)
    } catch (error) {
      this.options.onError?.(error)
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.wake = done
    })
  }

  private describe(): string {
    return `HAProxyCfg ${this.target.namespace}/${this.target.name}`
  }
}
