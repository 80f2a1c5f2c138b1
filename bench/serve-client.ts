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

/**
 * A cluster write (`POST …/events`, or `PUT …/objects` with a `v1` List), retried after a 503
 * (HEAD contention) or a reset connection as a forwarder would: the answer, and how many times
 * it was retried.
 */
export async function sendWrite(
  url: string,
  cluster: ClusterClient,
  write: { events: WatchEvent[] } | { objects: unknown[] },
): Promise<{ answer: WriteAnswer; retries: number }> {
  const [method, path, body] =
    'events' in write ? ['POST', 'events', { events: write.events }] : ['PUT', 'objects', { apiVersion: 'v1', kind: 'List', items: write.objects }]
  const text = JSON.stringify(body)
  for (let retries = 0; ; retries++) {
    const response = await fetch(`${url}/v1/clusters/${cluster.id}/${path}`, {
      method,
      headers: { authorization: `Bearer ${cluster.token}`, 'content-type': 'application/json' },
      body: text,
    }).catch((error: Error & { cause?: { code?: string } }) => {
      // A kept-alive connection the server closed as the request went out: send again, as a forwarder would (a write is idempotent).
      if (error.cause?.code === 'ECONNRESET') return undefined
      throw error
    })
    if (!response) continue
    if (response.status === 200) return { answer: (await response.json()) as WriteAnswer, retries }
    const answer = await response.text()
    if (response.status !== 503) throw new Error(`${method} ${path} on ${cluster.id}: ${response.status} ${answer}`)
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80))
  }
}
