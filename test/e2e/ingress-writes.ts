import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { clusterKeys } from '../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../core/ports/object-store.ts'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { createDiskStore } from '../../functions/adapters/storage/disk-store.ts'
import { httpSource } from '../../processes/agent/http-source.ts'
import { readTextTree } from '../integration/read-tree.ts'
import { coldContext } from '../support/contracts/cluster-apps.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { hapedge } from '../support/run-cli.ts'

/**
 * A stream of one-Ingress writes to `hapedge serve` and what the committed state must then hold:
 * for the suites that crash the server or share its data directory with another one.
 */

/** The binds a cluster is registered with and rendered with, so served and rendered files compare. */
export const BINDS = { httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' }

const hostOf = (n: number) => `app-${n}.stream.test`

/** The Service every Ingress of the stream routes to, with one ready endpoint. */
export const backend = [service('web'), endpointSlice('web', ['10.0.0.1'])]

/** Write `n` of the stream: an Ingress of its own on its own host. */
export const streamIngress = (n: number) => ingress({ name: `app-${n}`, rules: [{ host: hostOf(n), paths: [{ path: '/', service: 'web' }] }] })

export interface Answer {
  status: number
  body: Record<string, unknown>
}

/** A JSON request; undefined when no answer came (the connection was refused or reset). */
export async function callJson(url: string, method: string, path: string, token: string, body?: unknown): Promise<Answer | undefined> {
  const headers = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  const response = await request(url + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), timeoutMs: 60_000 }).catch(
    () => undefined,
  )
  return response && { status: response.status, body: response.body ? (response.json() as Record<string, unknown>) : {} }
}

/**
 * Sends watch events as a forwarder does, again after a 503 (HEAD contention, a lock a crashed
 * process left), a bounded number of times. The generation that holds them once answered 200,
 * else undefined: not acknowledged, so it may or may not have committed.
 */
export async function sendEvents(url: string, cluster: string, token: string, objects: unknown[]): Promise<number | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const answer = await callJson(url, 'POST', `/v1/clusters/${cluster}/events`, token, { events: objects.map((object) => ({ type: 'MODIFIED', object })) })
    if (answer?.status === 200) return answer.body.generation as number
    if (answer?.status !== 503) return undefined
    await sleep(250)
  }
  return undefined
}

/** The generation HEAD names, read back over HTTP as an agent reads it, every blob checked against its sha256. */
export async function committedFiles(url: string, cluster: string, token: string) {
  const head = await callJson(url, 'GET', `/v1/clusters/${cluster}/head`, token)
  if (head?.status !== 200) throw new Error(`GET head: ${head?.status} ${JSON.stringify(head?.body)}`)
  const { generation, manifest } = head.body as { generation: number; manifest: string }
  const files = await readGeneration(httpSource(url, cluster, token), cluster, manifest, coldContext())
  return { generation, manifest, files }
}

/** The writes of the stream whose hosts the files serve. */
export function writesIn(files: Map<string, string>): Set<number> {
  const found = new Set<number>()
  for (const content of files.values()) for (const match of content.matchAll(/\bapp-(\d+)\.stream\.test\b/g)) found.add(Number(match[1]))
  return found
}

/** What `hapedge render` writes for these objects (without the manifest.json written for people). */
export async function rendered(dir: string, objects: unknown[]): Promise<Map<string, string>> {
  const input = join(dir, 'objects.json')
  await writeFile(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }))
  const out = join(dir, 'rendered')
  const run = await hapedge(['render', '--in', input, '--out', out, '--http-bind', BINDS.httpBind, '--https-bind', BINDS.httpsBind])
  if (run.code !== 0) throw new Error(`hapedge render: ${run.stderr}`)
  const files = await readTextTree(out)
  files.delete('manifest.json')
  return files
}

interface ChainLink {
  generation: number
  manifest: string
  parent: string | null
}

/** HEAD and the generation records as the disk store keeps them (`clusters/<id>/HEAD`, `…/generations/<n>`: not sealed). */
export function historyOnDisk(data: string, cluster: string): Promise<{ head: ChainLink; records: Map<number, ChainLink> }> {
  return historyIn(createDiskStore({ root: data }), cluster)
}

/** HEAD and the generation records in a store, its keys under `prefix` (an S3 bucket as its double keeps it, say). */
export async function historyIn(store: ObjectStore, cluster: string, prefix = ''): Promise<{ head: ChainLink; records: Map<number, ChainLink> }> {
  const read = async (key: string) => JSON.parse(new TextDecoder().decode((await store.get(key))!.body)) as ChainLink
  const keys = clusterKeys(cluster)
  const head = await read(prefix + keys.head)
  const records = new Map<number, ChainLink>()
  for await (const { key } of store.list(prefix + keys.generations)) {
    if (!/\/\d+$/.test(key)) continue
    const record = await read(key)
    records.set(record.generation, record)
  }
  return { head, records }
}

/** Generations whose record names another parent than the manifest of the record before it (none when chained). */
export function brokenLinks(head: ChainLink, records: Map<number, ChainLink>): string[] {
  const broken: string[] = []
  for (const link of [...records.values(), head]) {
    const before = records.get(link.generation - 1)
    if (link.generation === 1 && link.parent !== null) broken.push(`generation 1 names a parent, ${link.parent}`)
    if (before && link.parent !== before.manifest)
      broken.push(`generation ${link.generation} names parent ${link.parent}, not generation ${before.generation}'s ${before.manifest}`)
  }
  const own = records.get(head.generation)
  if (own && own.manifest !== head.manifest) broken.push(`HEAD names ${head.manifest} for generation ${head.generation}, its record ${own.manifest}`)
  return broken
}

/** Deterministic jitter, so a failing run can be told apart from another by its seed alone. */
export function seededRandom(seed: number): () => number {
  let state = seed
  return () => (state = (state * 48271) % 0x7fffffff) / 0x7fffffff
}
