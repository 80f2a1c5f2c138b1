import type { z } from 'zod'
import { jsonAnswer, parseAnswer } from '../../core/api/parse-answer.ts'
import {
  resyncBeginAnswer,
  resyncFinishAnswer,
  resyncPageAnswer,
  type ResyncBeginAnswer,
  type ResyncFinishAnswer,
  type ResyncPageAnswer,
} from '../../core/api/resync-answers.ts'
import { gatewayStatusAnswer, type GatewayStatusAnswer } from '../../core/api/gateway-status-answer.ts'
import { statusAnswer, type StatusAnswer } from '../../core/api/status-answer.ts'
import { writeAnswer, type WriteAnswer } from '../../core/api/write-answer.ts'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { fetchFailure } from '../fetch-failure.ts'

/** What the function answers a write (see the README's HTTP API): the forwarder logs it and hands it to `onCommitted`. */
export type WriteResult = WriteAnswer

/** A write the function refused or could not take, with its HTTP status (none for a network failure) and its own error message and path. */
export class DeliveryError extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
    readonly path?: string,
    readonly retryAfter?: string | null,
  ) {
    super(message)
  }

  /** Network failures, 429, 503 and other 5xx are worth sending again; any other 4xx would fail the same way. */
  get retryable(): boolean {
    return this.status === undefined || this.status === 429 || this.status >= 500
  }
}

export interface FunctionTarget {
  /** The function's base URL, without a trailing slash. */
  source: string
  cluster: string
  token: string
}

/** The writes the forwarder makes: a full resync (`PUT …/objects`, or a resync session's calls) and a batch of watch events (`POST …/events`). */
export class FunctionClient {
  constructor(
    private readonly target: FunctionTarget,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  putObjects(items: readonly object[], resourceVersion?: string): Promise<WriteResult> {
    return this.send('PUT', 'objects', { apiVersion: 'v1', kind: 'List', metadata: resourceVersion ? { resourceVersion } : {}, items })
  }

  postEvents(events: readonly WatchEvent[]): Promise<WriteResult> {
    return this.send('POST', 'events', { events })
  }

  /** `POST …/resync`: a resync session begins; or, told the list's size, the function may answer that it takes the list whole (`PUT …/objects`). */
  beginResync(size?: { items: number; bytes: number }): Promise<ResyncBeginAnswer> {
    return this.send('POST', 'resync', size, resyncBeginAnswer)
  }

  /** `PUT …/resync/{session}/pages/{n}`: one page of the list. */
  putResyncPage(session: string, page: number, items: readonly object[]): Promise<ResyncPageAnswer> {
    return this.send('PUT', `resync/${session}/pages/${page}`, { apiVersion: 'v1', kind: 'List', metadata: {}, items }, resyncPageAnswer)
  }

  /** `POST …/resync/{session}/finish`: done with the write answer, or not done yet (call it again). */
  finishResync(session: string, pages: number): Promise<ResyncFinishAnswer> {
    return this.send('POST', `resync/${session}/finish`, { pages }, resyncFinishAnswer)
  }

  /**
   * `DELETE …/resync/{session}`: abandons a session this forwarder gives up on, so that its pages
   * do not wait in the store for the session's time to run out. One already gone (404, 410) is done.
   */
  async abandonResync(session: string): Promise<void> {
    const url = this.routeUrl(`resync/${session}`)
    const response = await this.fetcher(url, { method: 'DELETE', headers: { authorization: `Bearer ${this.target.token}` } }).catch((error: unknown) => {
      throw new DeliveryError(undefined, `DELETE ${url}: ${fetchFailure(error)}`)
    })
    if (response.ok || response.status === 404 || response.status === 410) return
    throw new DeliveryError(response.status, `DELETE ${url}: ${response.status} ${errorOf(await response.text()).message}`)
  }

  /** The `HAProxyCfg` status the function computes for the cluster's newest generation. */
  status(): Promise<StatusAnswer> {
    return this.read('status', statusAnswer)
  }

  /** The Gateway API status the function computes for the cluster's newest generation: whole, or what changed since the generation `since`. */
  gatewayStatus(since?: number): Promise<GatewayStatusAnswer> {
    return this.read(since === undefined ? 'gateway-status' : `gateway-status?since=${since}`, gatewayStatusAnswer)
  }

  /** The URL of `route` under the cluster's routes (`/v1/clusters/{id}/`). */
  private routeUrl(route: string): string {
    return `${this.target.source}/v1/clusters/${encodeURIComponent(this.target.cluster)}/${route}`
  }

  private async read<Schema extends z.ZodType>(route: string, schema: Schema): Promise<z.infer<Schema>> {
    const url = this.routeUrl(route)
    const response = await this.fetcher(url, { headers: { authorization: `Bearer ${this.target.token}` } })
    if (!response.ok) throw new DeliveryError(response.status, `GET ${url}: ${response.status} ${await response.text()}`)
    return parseAnswer(schema, await jsonAnswer(response, `GET ${url}`), `the function's ${route} answer (GET ${url})`)
  }

  private send(method: string, route: string, body: unknown): Promise<WriteResult>
  private send<Schema extends z.ZodType>(method: string, route: string, body: unknown, schema: Schema): Promise<z.infer<Schema>>
  private async send(method: string, route: string, body: unknown, schema: z.ZodType = writeAnswer): Promise<unknown> {
    const url = this.routeUrl(route)
    const response = await this.fetcher(url, {
      method,
      headers: { authorization: `Bearer ${this.target.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).catch((error: unknown) => {
      throw new DeliveryError(undefined, `${method} ${url}: ${fetchFailure(error)}`)
    })
    if (response.ok) return parseAnswer(schema, await jsonAnswer(response, `${method} ${url}`), `the function's answer to ${method} ${url}`)
    const text = await response.text()
    const { message, path } = errorOf(text)
    throw new DeliveryError(
      response.status,
      `${method} ${url}: ${response.status} ${message}${path ? ` (at ${path})` : ''}`,
      path,
      response.headers.get('retry-after'),
    )
  }
}

function errorOf(text: string): { message: string; path?: string } {
  try {
    const { error } = JSON.parse(text) as { error?: { message?: string; path?: string } }
    if (error?.message) return { message: error.message, ...(error.path ? { path: error.path } : {}) }
  } catch {
    // Not the function's JSON error (a proxy's page, say): show the start of it.
  }
  return { message: text.slice(0, 200) }
}
