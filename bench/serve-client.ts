import { request } from 'node:http'
import type { WatchEvent } from '../core/incremental/watch-event.ts'

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

/** Fails unless the request answered `expected`, naming it. */
async function expect<T>(expected: number, request: Promise<{ status: number; answer: T; retries: number }>, what: string) {
  const answered = await request
  if (answered.status !== expected) throw new Error(`${what}: ${answered.status} ${JSON.stringify(answered.answer)}`)
  return answered
}

/** A cluster write (`POST …/events`, or `PUT …/objects` with a `v1` List): the answer, and how many times it was retried. */
export async function sendWrite(
  url: string,
  cluster: ClusterClient,
  write: { events: WatchEvent[] } | { objects: unknown[] },
): Promise<{ answer: WriteAnswer; retries: number }> {
  const [method, path, body] = 'events' in write ? ['POST', 'events', JSON.stringify({ events: write.events })] : ['PUT', 'objects', listBody(write.objects)]
  return expect(200, clusterRequest<WriteAnswer>(url, cluster, method, path, body), `${method} ${path} on ${cluster.id}`)
}

/** What a paged resync did: its pages and the finish calls it took (a 202 asks for another). */
export interface PagedResync {
  answer: WriteAnswer
  pages: number
  pageItems: number
  finishCalls: number
}

/**
 * A resync in pages, as the forwarder sends one: a session begun, its pages sent one after
 * another (each at most the `pageItems` the server answered), then finish called until it is done.
 */
export async function pagedResync(url: string, cluster: ClusterClient, items: readonly unknown[]): Promise<PagedResync> {
  const what = `resync of ${cluster.id}`
  const { answer: begun } = await expect(201, clusterRequest<{ session: string; pageItems: number }>(url, cluster, 'POST', 'resync', '{}'), `begin ${what}`)
  const pages = Math.max(1, Math.ceil(items.length / begun.pageItems))
  for (let page = 0; page < pages; page++) {
    const body = listBody(items.slice(page * begun.pageItems, (page + 1) * begun.pageItems))
    await expect(200, clusterRequest(url, cluster, 'PUT', `resync/${begun.session}/pages/${page}`, body), `page ${page} of ${what}`)
  }
  for (let finishCalls = 1; ; finishCalls++) {
    const finished = await clusterRequest<WriteAnswer & { done: boolean }>(url, cluster, 'POST', `resync/${begun.session}/finish`, JSON.stringify({ pages }))
    if (finished.status === 200 && finished.answer.done) return { answer: finished.answer, pages, pageItems: begun.pageItems, finishCalls }
    if (finished.status !== 202) throw new Error(`finish ${what}: ${finished.status} ${JSON.stringify(finished.answer)}`)
  }
}
