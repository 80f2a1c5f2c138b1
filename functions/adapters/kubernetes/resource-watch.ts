import { Watch, type KubeConfig } from '@kubernetes/client-node'
import { backoffDelay, sleep, type Backoff } from './backoff.ts'
import { KubeRequestError, listAll } from './kube-list.ts'
import type { KubeObject } from './kube-object.ts'

/** One kind to list and watch: where, and with which selector. */
export interface WatchedResource {
  apiVersion: string
  kind: string
  /** The collection's path, cluster-wide or in one namespace. */
  path: string
  fieldSelector?: string
  /** A kind whose CRD a cluster may lack (the Gateway API's): a 404 lists none and is not watched, instead of an error retried. */
  optional?: boolean
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED'

export interface ResourceWatchHandlers {
  /** A full list of the resource: at start, and again after the API server said the resourceVersion expired (410). */
  listed(items: KubeObject[], resourceVersion: string, why: 'start' | 'expired'): void
  changed(type: ChangeType, object: KubeObject): void
  log(line: string): void
}

/**
 * List, then watch one resource from the list's resourceVersion, with bookmarks; a watch that
 * ends (a timeout, a restarted API server, a load balancer) resumes from the last
 * resourceVersion seen, a bookmark's included; a 410 Expired lists again.
 */
export class ResourceWatch {
  private resourceVersion = ''
  private stopped = false
  private readonly stopping = new AbortController()
  private controller: AbortController | undefined
  private loop: Promise<void> | undefined
  /** An optional kind the API server does not serve (404 at its list): none listed, none watched. */
  private absent = false

  constructor(
    private readonly config: KubeConfig,
    readonly resource: WatchedResource,
    private readonly handlers: ResourceWatchHandlers,
    private readonly backoff: Backoff,
  ) {}

  /** Where the next watch starts: the last resourceVersion seen (a list's, an event's or a bookmark's). */
  get lastResourceVersion(): string {
    return this.resourceVersion
  }

  /** Lists the resource (retrying with backoff until it succeeds or the watch is stopped). */
  async list(why: 'start' | 'expired'): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        const query: Record<string, string> = this.resource.fieldSelector ? { fieldSelector: this.resource.fieldSelector } : {}
        const { items, resourceVersion } = await listAll(this.config, this.resource.path, query)
        this.resourceVersion = resourceVersion
        this.absent = false
        this.handlers.listed(items, resourceVersion, why)
        return
      } catch (error) {
        if (this.resource.optional && error instanceof KubeRequestError && error.statusCode === 404) {
          if (!this.absent)
            this.handlers.log(
              `${this.resource.kind}: not served by this API server (its CRD is not installed), so none is read; listed again at the next start`,
            )
          this.absent = true
          this.handlers.listed([], '', why)
          return
        }
        const wait = backoffDelay(this.backoff, attempt)
        this.handlers.log(`list ${this.resource.kind}: ${(error as Error).message}; trying again in ${wait} ms`)
        await sleep(wait, this.stopping.signal)
      }
    }
  }

  /** Watches from the last list until stopped. */
  start(): void {
    if (this.absent) return
    this.loop ??= this.watchLoop()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.stopping.abort()
    this.controller?.abort()
    await this.loop
  }

  private async watchLoop(): Promise<void> {
    for (let attempt = 0; !this.stopped; ) {
      const started = Date.now()
      const outcome = await this.watchOnce()
      if (this.stopped) return
      if (outcome === 'expired') {
        this.handlers.log(`watch ${this.resource.kind}: resourceVersion ${this.resourceVersion} expired (410); listing again`)
        await this.list('expired')
        attempt = 0
      } else if (outcome instanceof Error || Date.now() - started < 1000) {
        const wait = backoffDelay(this.backoff, attempt++)
        if (outcome instanceof Error)
          this.handlers.log(`watch ${this.resource.kind}: ${outcome.message}; watching again from ${this.resourceVersion} in ${wait} ms`)
        await sleep(wait, this.stopping.signal)
      } else attempt = 0
    }
  }

  /** One watch request, until its stream ends: 'expired' on a 410, the error when it failed, else 'ended'. */
  private watchOnce(): Promise<'expired' | 'ended' | Error> {
    let expired = false
    // Like client-go, end each watch after 5 to 10 minutes, so no stream outlives a silently dead connection for long.
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300)
    const query = {
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds,
      ...(this.resource.fieldSelector ? { fieldSelector: this.resource.fieldSelector } : {}),
    }
    return new Promise((resolve) => {
      const onEvent = (type: string, object: KubeObject & { code?: number; message?: string }) => {
        if (type === 'ERROR') {
          if (object.code === 410) expired = true
          else this.handlers.log(`watch ${this.resource.kind}: ${object.code ?? ''} ${object.message ?? 'error event'}`)
          return
        }
        const version = object.metadata?.resourceVersion
        if (version) this.resourceVersion = version
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.handlers.changed(type, object)
      }
      const onDone = (error: unknown) => {
        const status = (error as { statusCode?: number } | null)?.statusCode
        resolve(expired || status === 410 ? 'expired' : error ? (error instanceof Error ? error : new Error(String(error))) : 'ended')
      }
      new Watch(this.config).watch(this.resource.path, query, onEvent, onDone).then(
        (controller) => {
          this.controller = controller
          if (this.stopped) controller.abort()
        },
        (error: unknown) => onDone(error),
      )
    })
  }
}
