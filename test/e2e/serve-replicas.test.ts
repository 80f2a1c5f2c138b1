import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../core/ports/object-store.ts'
import { startConditionalS3Double, type ConditionalS3Double } from '../support/conditional-s3-double.ts'
import { DEFAULT_DELIVERY } from '../../processes/forwarder/delivery.ts'
import { FunctionClient } from '../../processes/forwarder/function-client.ts'
import { DEFAULT_PAGED_RESYNC, sendPagedResync } from '../../processes/forwarder/paged-resync.ts'
import { eventually } from '../support/eventually.ts'
import { hapedge } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { backend, BINDS, brokenLinks, callJson, committedFiles, historyIn, rendered, sendEvents, streamIngress, writesIn } from './ingress-writes.ts'

/**
 * Several `hapedge serve --store` processes on one S3 bucket, as replicas behind a Service would
 * run: the bucket is the conditional S3 double (s3rver ignores If-Match, so it could not show a
 * lost race). They agree on the admin token made at their first start, HEAD moves by
 * compare-and-swap across them, a replica's caches never answer past HEAD, an agent's report
 * reaches them all and each pushes its commits to every agent of the cluster.
 */

const WRITES = 45
const WRITERS = 6
const BUCKET = 'hapedge'
const PREFIX = 'replicas/'

/** The environment of a replica: credentials the double does not check, and nothing of this machine's AWS configuration. */
const AWS = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'replica-key',
  AWS_SECRET_ACCESS_KEY: 'replica-secret',
  AWS_CONFIG_FILE: '/nonexistent/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
  AWS_EC2_METADATA_DISABLED: 'true',
}

const onStore = (double: ConditionalS3Double, url: string) => ['--store', url, '--s3-endpoint', double.endpoint, '--s3-force-path-style']

/** Every key of the bucket, as the double keeps them. */
async function keysOf(store: ObjectStore): Promise<string[]> {
  const keys: string[] = []
  for await (const { key } of store.list('')) keys.push(key)
  return keys
}

/** An agent's `--listen` address on loopback that records what it is told. */
async function listeningAgent() {
  const notified: { generation: number; manifest: string }[] = []
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      if (request.url === '/notify') notified.push(JSON.parse(body))
      response.writeHead(202).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, notified, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe('three hapedge serve processes on one S3 bucket', () => {
  let double: ConditionalS3Double
  let tmp: string
  let replicas: Served[] = []
  const closing: (() => Promise<unknown>)[] = []

  beforeAll(async () => {
    double = await startConditionalS3Double({ buckets: [BUCKET] })
    tmp = await makeTempDir('hapedge-e2e-replicas')
    // Started at once on an empty bucket: each would make the admin token and the deployment secret.
    replicas = await Promise.all([1, 2, 3].map(() => startServe(onStore(double, `s3://${BUCKET}/${PREFIX}`), AWS)))
  })
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()))
    for (const close of closing) await close()
    await double?.stop()
    if (tmp) await removeTempDir(tmp)
  })

  /** Each cluster's token, by id. */
  const tokens = new Map<string, string>()
  const register = async (id: string, settings: Record<string, unknown> = {}) => {
    const registered = await callJson(replicas[0]!.url, 'POST', '/v1/clusters', replicas[0]!.adminToken, { id, ...BINDS, ...settings })
    expect(registered?.status, JSON.stringify(registered?.body)).toBe(201)
    tokens.set(id, registered!.body.token as string)
    return registered!.body.token as string
  }

  it('agree on one admin token, made once in the bucket under the prefix', async () => {
    expect(new Set(replicas.map((replica) => replica.adminToken)).size).toBe(1)
    const kept = await double.bucket(BUCKET).get(`${PREFIX}registry/deployment/admin-token`)
    expect(new TextDecoder().decode(kept!.body).trim()).toBe(replicas[0]!.adminToken)
  })

  it('commit every write sent round-robin to the three at once: generations 1..N chained, each made by one replica, the files a full rebuild', async () => {
    const cluster = 'round-robin'
    const token = await register(cluster)
    expect(await sendEvents(replicas[1]!.url, cluster, token, backend)).toBe(1)

    const answeredBy = new Map<number, Set<string>>()
    const acknowledged = new Map<number, number>()
    let next = 0
    const writers = Array.from({ length: WRITERS }, async () => {
      for (let n = next++; n < WRITES; n = next++) {
        const target = replicas[n % replicas.length]!
        const generation = await sendEvents(target.url, cluster, token, [streamIngress(n)])
        expect(generation, `write ${n} to ${target.url}`).toBeDefined()
        acknowledged.set(n, generation!)
        answeredBy.set(generation!, (answeredBy.get(generation!) ?? new Set()).add(target.url))
      }
    })
    await Promise.all(writers)
    expect(acknowledged.size).toBe(WRITES)
    expect(new Set([...answeredBy.values()].flatMap((urls) => [...urls]))).toEqual(new Set(replicas.map((replica) => replica.url)))
    for (const [generation, urls] of answeredBy) expect(urls.size, `generation ${generation} answered by ${[...urls].join(' and ')}`).toBe(1)

    const served = await Promise.all(replicas.map((replica) => committedFiles(replica.url, cluster, token)))
    for (const other of served) expect(other.manifest).toBe(served[0]!.manifest)
    expect(writesIn(served[0]!.files)).toEqual(new Set(acknowledged.keys()))
    expect(served[0]!.files).toEqual(await rendered(tmp, [...backend, ...[...acknowledged.keys()].sort((x, y) => x - y).map(streamIngress)]))

    const { head, records } = await historyIn(double.bucket(BUCKET), cluster, PREFIX)
    expect(head).toMatchObject({ generation: served[0]!.generation, manifest: served[0]!.manifest })
    expect([...records.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: head.generation }, (_, i) => i + 1))
    expect(brokenLinks(head, records)).toEqual([])
  })

  it('hapedge gc --store collects the bucket the replicas serve from, and they serve the same files after', async () => {
    const cluster = 'round-robin'
    const token = tokens.get(cluster)!
    const before = await committedFiles(replicas[0]!.url, cluster, token)
    const objects = async () => (await keysOf(double.bucket(BUCKET))).filter((key) => key.startsWith(`${PREFIX}clusters/${cluster}/`)).length
    const count = await objects()
    const run = await hapedge(['gc', ...onStore(double, `s3://${BUCKET}/${PREFIX}`), '--cluster', cluster, '--keep', '2', '--grace', '0s'], AWS)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`^${cluster}: generation ${before.generation}, kept 2 generations \\(\\d+ objects\\); deleted [1-9]\\d*, `))
    expect(await objects()).toBeLessThan(count)
    for (const replica of replicas) expect((await committedFiles(replica.url, cluster, token)).files).toEqual(before.files)
  })

  it('a replica that served a cluster answers the HEAD another replica committed since, and builds its next commit on it', async () => {
    const cluster = 'warm-cache'
    const token = await register(cluster)
    const [a, b] = replicas as [Served, Served]
    expect(await sendEvents(a.url, cluster, token, [...backend, streamIngress(0)])).toBe(1)
    // A serves the cluster as agents read it, whole and as a delta: its caches hold generation 1.
    const before = await committedFiles(a.url, cluster, token)
    expect((await callJson(a.url, 'GET', `/v1/clusters/${cluster}/head?have=${before.manifest}`, token))?.body).toMatchObject({ generation: 1, blobs: {} })

    expect(await sendEvents(b.url, cluster, token, [streamIngress(1)])).toBe(2)
    const fromB = await committedFiles(b.url, cluster, token)
    const head = await callJson(a.url, 'GET', `/v1/clusters/${cluster}/head`, token)
    expect(head?.body).toMatchObject({ generation: 2, manifest: fromB.manifest })
    // An agent of generation 1 asking A is given what generation 2 changed.
    const delta = await callJson(a.url, 'GET', `/v1/clusters/${cluster}/head?have=${before.manifest}`, token)
    expect(delta?.body).toMatchObject({ generation: 2, manifest: fromB.manifest })
    expect(Object.keys(delta?.body.blobs as object).length).toBeGreaterThan(0)
    expect((await committedFiles(a.url, cluster, token)).files).toEqual(fromB.files)

    // A's next commit starts from B's generation, not from the one its caches last held.
    expect(await sendEvents(a.url, cluster, token, [streamIngress(2)])).toBe(3)
    expect(writesIn((await committedFiles(b.url, cluster, token)).files)).toEqual(new Set([0, 1, 2]))
  })

  it("a forwarder's paged resync whose calls land on one replica after another commits the list it sent", async () => {
    const cluster = 'paged'
    const token = await register(cluster)
    expect(await sendEvents(replicas[2]!.url, cluster, token, [...backend, streamIngress(0), streamIngress(1)])).toBe(1)
    // Each call of the session (begin, pages, finish) goes to the next replica, as a Service without affinity may send them.
    let call = 0
    const roundRobin: typeof fetch = (input, init) => {
      const url = new URL(String(input))
      const replica = new URL(replicas[call++ % replicas.length]!.url)
      url.host = replica.host
      return fetch(url, init)
    }
    const listed = [...backend, ...Array.from({ length: 24 }, (_, n) => streamIngress(n + 1))]
    const client = new FunctionClient({ source: replicas[0]!.url, cluster, token }, roundRobin)
    const answer = await sendPagedResync(client, listed, {
      ...DEFAULT_PAGED_RESYNC,
      pageItems: 4,
      pageBytes: DEFAULT_DELIVERY.maxBytes,
      backoff: DEFAULT_DELIVERY.backoff,
      log: () => {},
    })
    expect(call).toBeGreaterThan(replicas.length * 2)
    const served = await committedFiles(replicas[1]!.url, cluster, token)
    expect(served.generation).toBe(answer.generation)
    expect(served.files).toEqual(await rendered(tmp, listed))
    const { head, records } = await historyIn(double.bucket(BUCKET), cluster, PREFIX)
    expect([...records.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: head.generation }, (_, i) => i + 1))
    expect(brokenLinks(head, records)).toEqual([])
  })

  it('a fleet page session begun on one replica is honoured by another, and its sign-out on one ends it on all', async () => {
    const [a, b, c] = replicas as [Served, Served, Served]
    const page = (replica: Served, path: string, init: RequestInit = {}) => fetch(replica.url + path, { redirect: 'manual', ...init })
    const login = await page(a, '/fleet/login', { method: 'POST', body: new URLSearchParams({ token: a.adminToken }) })
    const cookie = /^(hapedge_fleet=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1]
    expect(cookie).toBeDefined()
    const fleet = await page(b, '/fleet', { headers: { cookie: cookie! } })
    expect(fleet.status).toBe(200)
    const csrf = /name="csrf" value="([^"]+)"/.exec(await fleet.text())?.[1]
    expect((await page(c, '/fleet/logout', { method: 'POST', headers: { cookie: cookie! }, body: new URLSearchParams({ csrf: csrf! }) })).status).toBe(303)
    const after = await page(a, '/fleet', { headers: { cookie: cookie! } })
    expect([after.status, after.headers.get('location')]).toEqual([303, '/fleet/login'])
  })

  it("an agent's report reaches whichever replica answers, and each replica pushes its commits to that agent", async () => {
    const cluster = 'pushed'
    const token = await register(cluster, { agentOrigins: ['http://127.0.0.1:*'] })
    const [a, b] = replicas as [Served, Served]
    const agent = await listeningAgent()
    closing.push(agent.close)
    // A commits and pushes while the cluster has no agent: what it read then must not hide the agent that reports next.
    expect(await sendEvents(a.url, cluster, token, [...backend, streamIngress(0)])).toBe(1)

    const report = { generation: 1, manifest: null, applied: null, appliedAt: null, lastError: null, notifyUrl: agent.url }
    expect((await callJson(b.url, 'POST', `/v1/clusters/${cluster}/agents/haproxy-0`, token, report))?.status).toBe(200)
    const listed = await callJson(a.url, 'GET', `/v1/clusters/${cluster}/agents`, token)
    expect((listed?.body.agents as { pod: string }[] | undefined)?.map((known) => known.pod)).toEqual(['haproxy-0'])

    const pushedBy = async (replica: Served, n: number) => {
      const generation = await sendEvents(replica.url, cluster, token, [streamIngress(n)])
      return eventually(`the push of generation ${generation} from ${replica.url}`, () => agent.notified.find((push) => push.generation === generation))
    }
    expect(await pushedBy(a, 1)).toMatchObject({ generation: 2 })
    expect(await pushedBy(b, 2)).toMatchObject({ generation: 3 })
    expect(await pushedBy(a, 3)).toMatchObject({ generation: 4 })
  })
})

describe('two deployments in one bucket, each under its own prefix', () => {
  let double: ConditionalS3Double
  let deployments: Served[] = []
  beforeAll(async () => {
    double = await startConditionalS3Double({ buckets: ['shared'] })
    deployments = await Promise.all(['team-a', 'team-b'].map((prefix) => startServe(onStore(double, `s3://shared/${prefix}`), AWS)))
  })
  afterAll(async () => {
    await Promise.all(deployments.map((deployment) => deployment.stop()))
    await double?.stop()
  })

  it('keep every key under their prefix, their own admin tokens and their own clusters of the same name', async () => {
    const [a, b] = deployments as [Served, Served]
    expect(a.adminToken).not.toBe(b.adminToken)
    const tokens = await Promise.all(
      deployments.map(async (deployment) => {
        const registered = await callJson(deployment.url, 'POST', '/v1/clusters', deployment.adminToken, { id: 'web', ...BINDS })
        expect(registered?.status).toBe(201)
        return registered!.body.token as string
      }),
    )
    expect((await callJson(b.url, 'GET', '/v1/clusters', a.adminToken))?.status).toBe(401)
    expect(await sendEvents(a.url, 'web', tokens[0]!, [...backend, streamIngress(1)])).toBe(1)
    expect(await sendEvents(b.url, 'web', tokens[1]!, [...backend, streamIngress(2), streamIngress(3)])).toBe(1)

    expect(writesIn((await committedFiles(a.url, 'web', tokens[0]!)).files)).toEqual(new Set([1]))
    expect(writesIn((await committedFiles(b.url, 'web', tokens[1]!)).files)).toEqual(new Set([2, 3]))
    const keys = await keysOf(double.bucket('shared'))
    expect(keys.filter((key) => !key.startsWith('team-a/') && !key.startsWith('team-b/'))).toEqual([])
    for (const prefix of ['team-a/', 'team-b/']) expect(keys).toContain(`${prefix}clusters/web/HEAD`)
  })
})
