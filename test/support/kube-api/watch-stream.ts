import type { ServerResponse } from 'node:http'
import { badRequest, expired } from './kube-error.ts'
import type { Change, KubeStorage } from './kube-storage.ts'
import { apiVersionOf, type ResourceType } from './resources.ts'
import type { KubeObject, Selector } from './selectors.ts'

export interface WatchRequest {
  resource: ResourceType
  namespace?: string
  selects: Selector
  /** The `resourceVersion` query parameter: absent or "0" starts with a synthetic ADDED for every current object. */
  resourceVersion: string | null
  allowBookmarks: boolean
  timeoutSeconds?: number
}

/** An open watch: newline-delimited JSON `{type, object}` events on a chunked 200 response, as the API server streams them. */
export class WatchStream {
  private readonly unsubscribe: () => void
  private timer: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    readonly request: WatchRequest,
    private readonly storage: KubeStorage,
    private readonly response: ServerResponse,
    onClose: (stream: WatchStream) => void,
  ) {
    response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache, private' })
    response.flushHeaders()
    response.once('close', () => {
      this.closed = true
      this.cleanUp()
      onClose(this)
    })
    this.unsubscribe = storage.subscribe((change) => this.deliver(change))
    if (request.timeoutSeconds !== undefined) this.timer = setTimeout(() => this.end(true), request.timeoutSeconds * 1000)
    this.start()
  }

  get open(): boolean {
    return !this.closed
  }

  /** Sends a BOOKMARK carrying the current resourceVersion, when the client allowed bookmarks. */
  bookmark(): void {
    if (!this.request.allowBookmarks) return
    const { resource } = this.request
    this.send('BOOKMARK', { apiVersion: apiVersionOf(resource), kind: resource.kind, metadata: { resourceVersion: String(this.storage.resourceVersion) } })
  }

  /** Ends the stream cleanly, as a timeout, an API server restart or a load balancer does; a timeout sends a last bookmark first. */
  end(timedOut = false): void {
    if (this.closed) return
    if (timedOut) this.bookmark()
    this.cleanUp()
    this.response.end()
  }

  private start(): void {
    const { resourceVersion } = this.request
    if (resourceVersion === null || resourceVersion === '' || resourceVersion === '0') {
      for (const object of this.storage.list(this.request.resource, this.request.namespace)) if (this.request.selects(object)) this.send('ADDED', object)
      return
    }
    const from = Number(resourceVersion)
    if (!Number.isInteger(from)) return this.fail(badRequest(`resourceVersion ${JSON.stringify(resourceVersion)}: not a resource version`).status())
    const changes = this.storage.changesSince(from)
    // The real server answers an expired resourceVersion on an open stream: 200, then one ERROR event carrying a 410 Status.
    if (!changes) return this.fail(expired(resourceVersion, this.storage.oldestResourceVersion).status())
    for (const change of changes) this.deliver(change)
  }

  private deliver(change: Change): void {
    const { resource, namespace, selects } = this.request
    if (this.closed || change.resource !== resource) return
    if (namespace !== undefined && change.object.metadata?.namespace !== namespace) return
    const now = change.type !== 'DELETED' && selects(change.object)
    const before = change.previous !== undefined && selects(change.previous)
    if (change.type === 'DELETED') {
      if (before) this.send('DELETED', change.object)
    } else if (now) this.send(before ? 'MODIFIED' : 'ADDED', change.object)
    else if (before) this.send('DELETED', change.object)
  }

  private fail(status: object): void {
    this.send('ERROR', status)
    this.end()
  }

  private send(type: string, object: KubeObject | object): void {
    if (!this.closed) this.response.write(`${JSON.stringify({ type, object })}\n`)
  }

  private cleanUp(): void {
    this.unsubscribe()
    clearTimeout(this.timer)
  }
}
