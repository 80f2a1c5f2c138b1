import { request } from 'node:http'
import type { WatchEvent } from '../core/incremental/watch-event.ts'
import { DEFAULT_DELIVERY } from '../processes/forwarder/delivery.ts'
import { FunctionClient } from '../processes/forwarder/function-client.ts'
import { DEFAULT_PAGED_RESYNC, sendPagedResync } from '../processes/forwarder/paged-resync.ts'

/** A cluster as a client of `hapedge serve` knows it: its id and its token. */
export interface ClusterClient {
  id: string
  token: string
}

/** The part of a write's answer the benchmark reads. */
export interface WriteAnswer {
  generation: number | null
  committed: boolean
}

/** Registers `id` through the admin API and answers its token. */
export async function registerCluster(url: string, adminToken: string, id: string): Promise<ClusterClient> {
  const response = await fetch(`${url}/v1/clusters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  })
  if (response.status !== 201) throw new Error(`POST /v1/clusters ${id}: ${response.status} ${await response.text()}`)
  return { id, token: ((await response.json()) as { token: string }).token }
}

/** A `v1` List of `items` as `PUT …/objects` and a resync page take it, serialized once. */
export const listBody = (items: readonly unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items })

/** Kept-alive sockets that already ignore their own errors (one listener each, however many requests they carry). */
const guarded = new WeakSet<object>()

/**
 * An HTTP request by node:http, which waits as long as the server takes (fetch gives up on an
 * answer after 5 minutes, and a large resync on a busy machine takes longer): status and body.
 */
function send(target: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(target, { method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString('utf8') }))
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    // A server that answers before the body is all sent (413) closes the socket under the rest of it: the answer counts, not that write's EPIPE.
    outgoing.on('socket', (socket) => {
      if (guarded.has(socket)) return
      guarded.add(socket)
      socket.on('error', () => {})
    })
    outgoing.end(body)
  })
}

/**
 * A request on a cluster's routes (`path` under `/v1/clusters/{id}/`), retried after a 503
 * (HEAD contention) or a reset connection as a forwarder would: the status, the parsed answer,
 * and how many times it was retried. Any status but 503 is the caller's to judge.
 */
export async function clusterRequest<T>(
  url: string,
  cluster: ClusterClient,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; answer: T; retries: number }> {
  for (let retries = 0; ; retries++) {
    const headers = { authorization: `Bearer ${cluster.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
    const response = await send(`${url}/v1/clusters/${cluster.id}/${path}`, method, headers, body).catch((error: Error & { code?: string }) => {
      // A kept-alive connection the server closed as the request went out: send again, as a forwarder would (a write is idempotent).
      if (error.code === 'ECONNRESET') return undefined
      throw error
    })
    if (!response) continue
    if (response.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80))
      continue
    }
    return { status: response.status, answer: (response.text ? JSON.parse(response.text) : undefined) as T, retries }
  }
}

/** A cluster write (`POST …/events`, or `PUT …/objects` with a `v1` List): the answer, and how many times it was retried. */
export async function sendWrite(
  url: string,
  cluster: ClusterClient,
  write: { events: WatchEvent[] } | { objects: unknown[] },
): Promise<{ answer: WriteAnswer; retries: number }> {
  const [method, path, body] = 'events' in write ? ['POST', 'events', JSON.stringify({ events: write.events })] : ['PUT', 'objects', listBody(write.objects)]
  const { status, answer, retries } = await clusterRequest<WriteAnswer>(url, cluster, method, path, body)
  if (status !== 200) throw new Error(`${method} ${path} on ${cluster.id}: ${status} ${JSON.stringify(answer)}`)
  return { answer, retries }
}

/** What a paged resync answered, and the requests it took by kind. */
export interface PagedResync {
  answer: WriteAnswer
  /** Every request: begin, pages and finish calls, each call sent again counted again. */
  requests: number
  /** `PUT …/resync/{session}/pages/{n}` calls. */
  pages: number
  /** `POST …/resync/{session}/finish` calls, and those of them answered 202 (not done yet: call again). */
  finishes: number
  accepted: number
  /** Calls that failed (an error status or no answer) and were sent again, each with its reason: one line per reason, with its count. */
  failed: number
  failures: string[]
}

/**
 * A resync in pages as the forwarder sends one, by its own code (sendPagedResync and
 * FunctionClient): a session begun, pages cut from the list sorted by key, a few in flight,
 * then finish called until it is done.
 */
export async function pagedResync(url: string, cluster: ClusterClient, items: readonly object[]): Promise<PagedResync> {
  const counts = { requests: 0, pages: 0, finishes: 0, accepted: 0, failed: 0 }
  const reasons = new Map<string, number>()
  const failure = (reason: string) => {
    counts.failed++
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  const counting: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname
    const call = path.endsWith('/finish') ? 'finish' : path.includes('/pages/') ? 'page' : 'begin'
    counts.requests++
    if (call === 'finish') counts.finishes++
    if (call === 'page') counts.pages++
    const response = await fetch(input, init).catch((error: Error & { cause?: Error }) => {
      failure(`${call}: no answer (${error.cause?.message ?? error.message})`)
      throw error
    })
    if (response.status === 202) counts.accepted++
    if (!response.ok) failure(`${call}: ${response.status} ${(await response.clone().text()).slice(0, 160)}`)
    return response
  }
  const client = new FunctionClient({ source: url, cluster: cluster.id, token: cluster.token }, counting)
  const answer = await sendPagedResync(client, items, {
    ...DEFAULT_PAGED_RESYNC,
    pageBytes: DEFAULT_DELIVERY.maxBytes,
    backoff: DEFAULT_DELIVERY.backoff,
    log: () => {},
  })
  return { answer, ...counts, failures: [...reasons].map(([reason, n]) => `${n} × ${reason}`) }
}

/**
 * The longest the server's event loop was blocked since /metrics was last read, in ms of wall
 * time and of the CPU time the server spent meanwhile (`hapedge_event_loop_blocked_max_seconds`;
 * reading it starts a new window): what any cluster's request may have waited behind other work,
 * the second whatever the machine's load.
 */
export async function eventLoopBlockedMs(url: string): Promise<{ wall: number; cpu: number }> {
  const { status, text } = await send(`${url}/metrics`, 'GET', {})
  const read = (clock: string) => new RegExp(`^hapedge_event_loop_blocked_max_seconds\\{clock="${clock}"\\} (\\S+)$`, 'm').exec(text)?.[1]
  const [wall, cpu] = [read('wall'), read('cpu')]
  if (status !== 200 || wall === undefined || cpu === undefined) throw new Error(`GET /metrics: ${status}, no hapedge_event_loop_blocked_max_seconds`)
  return { wall: Number(wall) * 1000, cpu: Number(cpu) * 1000 }
}
