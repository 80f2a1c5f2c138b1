import { jsonAnswer, parseAnswer } from '../../core/api/parse-answer.ts'
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

/** The two writes the forwarder makes: a full resync (`PUT …/objects`) and a batch of watch events (`POST …/events`). */
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

  /** The `HAProxyCfg` status the function computes for the cluster's newest generation. */
  async status(): Promise<StatusAnswer> {
    const url = `${this.target.source}/v1/clusters/${encodeURIComponent(this.target.cluster)}/status`
    const response = await this.fetcher(url, { headers: { authorization: `Bearer ${this.target.token}` } })
    if (!response.ok) throw new DeliveryError(response.status, `GET ${url}: ${response.status} ${await response.text()}`)
    return parseAnswer(statusAnswer, await jsonAnswer(response, `GET ${url}`), `the function's status answer (GET ${url})`)
  }

  private async send(method: string, route: string, body: unknown): Promise<WriteResult> {
    const url = `${this.target.source}/v1/clusters/${encodeURIComponent(this.target.cluster)}/${route}`
    const response = await this.fetcher(url, {
      method,
      headers: { authorization: `Bearer ${this.target.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch((error: unknown) => {
      throw new DeliveryError(undefined, `${method} ${url}: ${fetchFailure(error)}`)
    })
    if (response.ok) return parseAnswer(writeAnswer, await jsonAnswer(response, `${method} ${url}`), `the function's answer to ${method} ${url}`)
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
