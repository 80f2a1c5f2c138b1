import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { handler } from '../../functions/platforms/lambda/handler.ts'
import { collectGarbageHandler } from '../../functions/platforms/lambda/scheduled.ts'
import { clusterKeys } from '../../core/keys/cluster-keys.ts'
import { commitEvents } from '../../core/commit/commit-events.ts'
import { readHead } from '../../core/reading/read-head.ts'
import { nodeText } from '../../core/tree/node-body.ts'
import { isSealedBody } from '../../core/crypto/sealed-body.ts'
import { systemClock } from '../../core/ports/clock.ts'
import { clusterSettings } from '../../core/registry/cluster-record.ts'
import { Registry } from '../../core/registry/registry.ts'
import { sealedStore } from '../../functions/platforms/composition/sealed-store.ts'
import { nodeSha256 } from '../../functions/adapters/hash/node-sha256.ts'
import { createS3Store } from '../../functions/adapters/storage/s3-store.ts'
import { app, coldContext } from '../support/contracts/cluster-apps.ts'
import { loopbackClient, startS3rver, type RunningServer } from '../functions/adapters/storage/s3-servers.ts'
import { envelopes, invocation, jsonOf, type Call, type HttpEvent, type LambdaResult } from './lambda-events.ts'

const BUCKET = 'hapedge-lambda'
const ADMIN = 'lambda-admin-token-0123456789'
const put = (object: unknown) => ({ type: 'MODIFIED', object })

let server: RunningServer
/** The environment Lambda would give the function, with s3rver as the S3-compatible store. */
const environment = (endpoint: string): Record<string, string | undefined> => ({
  HAPEDGE_BUCKET: BUCKET,
  HAPEDGE_S3_ENDPOINT: endpoint,
  HAPEDGE_S3_FORCE_PATH_STYLE: 'true',
  HAPEDGE_ADMIN_TOKEN: ADMIN,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_SESSION_TOKEN: undefined,
  AWS_PROFILE: undefined,
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
})

beforeAll(async () => {
  server = await startS3rver(BUCKET)
  for (const [name, value] of Object.entries(environment(server.endpoint))) vi.stubEnv(name, value)
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await server?.stop()
})

describe.each(Object.entries(envelopes))('the Lambda handler, invoked with %s events', (source, envelope) => {
  const prefix = source.startsWith('Lambda') ? 'url' : 'api'
  const invoke = (call: Call) => handler(invocation(envelope, call)) as Promise<LambdaResult>
  const register = async (id: string) => {
    const { status, body } = jsonOf(await invoke({ method: 'POST', path: '/v1/clusters', token: ADMIN, json: { id } }))
    expect(status).toBe(201)
    return (body as { token: string }).token
  }
  const store = () => createS3Store({ client: loopbackClient(server.endpoint), bucket: BUCKET })

  it('answers the fixture as AWS sends it, from one app kept for the container', async () => {
    const result = (await handler(envelope)) as LambdaResult
    expect(result).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}', isBase64Encoded: false })
    const metrics = await invoke({ method: 'GET', path: '/metrics' })
    expect(metrics).toMatchObject({ statusCode: 200, isBase64Encoded: false, headers: { 'content-type': 'text/plain; version=0.0.4' } })
    expect(metrics.body).toMatch(/^hapedge_requests_total\{route="\/healthz",status="200"\} [1-9]/m)
  })

  it('registers a cluster with the admin token, and refuses it without (401)', async () => {
    const refused = jsonOf(await invoke({ method: 'POST', path: '/v1/clusters', json: { id: `${prefix}-nobody` } }))
    expect(refused).toEqual({ status: 401, body: { error: { message: expect.any(String) } } })
    const { status, body } = jsonOf(await invoke({ method: 'POST', path: '/v1/clusters', token: ADMIN, json: { id: `${prefix}-register` } }))
    expect({ status, body }).toMatchObject({ status: 201, body: { id: `${prefix}-register`, token: expect.stringMatching(/^hpe\./) } })
  })

  it('commits events sent base64-encoded and as plain text, and S3 holds what a full rebuild gives', async () => {
    const id = `${prefix}-events`
    const token = await register(id)
    const path = `/v1/clusters/${id}/events`
    const first = jsonOf(await invoke({ method: 'POST', path, token, json: { events: app(1).map(put) }, base64: true }))
    expect(first).toMatchObject({ status: 200, body: { generation: 1, committed: true, rejected: [], stale: 0 } })
    const second = jsonOf(await invoke({ method: 'POST', path, token, json: { events: app(2).map(put) } }))
    expect(second).toMatchObject({ status: 200, body: { generation: 2, committed: true, changed: { files: expect.any(Number) }, reload: expect.any(Boolean) } })
    const { manifest } = second.body as { manifest: string }
    expect(await readGeneration(store(), id, manifest, coldContext())).toEqual(fullRebuild([...app(1), ...app(2)]).files)
  })

  it('serves HEAD and the manifest as JSON, and a blob as base64 that decodes to the stored bytes', async () => {
    const id = `${prefix}-content`
    const token = await register(id)
    const committed = jsonOf(await invoke({ method: 'POST', path: `/v1/clusters/${id}/events`, token, json: { events: app(3).map(put) } }))
    const { manifest } = committed.body as { manifest: string }

    const head = await invoke({ method: 'GET', path: `/v1/clusters/${id}/head`, token })
    expect(head.headers?.['cache-control']).toBe('no-store')
    expect(jsonOf(head)).toEqual({ status: 200, body: { generation: 1, manifest, snapshot: expect.objectContaining({ sha256: expect.any(String) }) } })

    const record = await invoke({ method: 'GET', path: `/v1/clusters/${id}/manifests/${manifest}`, token })
    expect(record.headers).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable', etag: `"${manifest}"` })
    const { body } = jsonOf(record)
    expect(nodeSha256(record.body)).toBe(manifest)
    const tree = (body as { tree: { sha256: string } }).tree.sha256

    const blob = await invoke({ method: 'GET', path: `/v1/clusters/${id}/blobs/${tree}`, token })
    expect(blob).toMatchObject({ statusCode: 200, isBase64Encoded: true, headers: { 'content-type': 'application/octet-stream', etag: `"${tree}"` } })
    const bytes = Buffer.from(blob.body, 'base64')
    expect(blob.body).toBe(bytes.toString('base64'))
    // The blob as it is named, whether stored plain or gzipped.
    const stored = await store().get(`clusters/${id}/blobs/${tree}`)
    expect(bytes.toString('utf8')).toBe(await nodeText(stored!.body))
    expect(nodeSha256(bytes.toString('utf8'))).toBe(tree)
  })

  it('refuses a cluster route without a token (401) and names the field of a malformed batch (400)', async () => {
    const id = `${prefix}-errors`
    const token = await register(id)
    const path = `/v1/clusters/${id}/events`
    expect(jsonOf(await invoke({ method: 'POST', path, json: { events: [] } }))).toEqual({ status: 401, body: { error: { message: expect.any(String) } } })
    const bad = jsonOf(await invoke({ method: 'POST', path, token, json: { events: [put(app(1)[0]), { type: 'UPSERTED', object: {} }] }, base64: true }))
    expect(bad).toEqual({ status: 400, body: { error: { message: expect.stringMatching(/ADDED.*MODIFIED.*DELETED/), path: 'events[1].type' } } })
    const notJson = jsonOf(await invoke({ method: 'POST', path, token, json: '{"events": [' }))
    expect(notJson).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^the body is not JSON/), path: '' } } })
  })

  it('serves the fleet page: a sign-in form post answers with the session cookie, which the next request sends back as AWS does', async () => {
    const id = `${prefix}-page`
    await register(id)
    const login = invocation(envelope, { method: 'POST', path: '/fleet/login' })
    const form = `token=${encodeURIComponent(ADMIN)}`
    login.headers = { ...login.headers, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) }
    login.body = form
    const signedIn = (await handler(login)) as LambdaResult & { cookies?: string[] }
    expect(signedIn.statusCode).toBe(303)
    // Payload format 2.0 returns cookies beside the headers, and the client sends them back in `cookies`.
    const cookie = signedIn.cookies?.find((value) => value.startsWith('hapedge_fleet='))
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).not.toContain(ADMIN)
    const page = invocation(envelope, { method: 'GET', path: '/fleet' })
    page.cookies = [cookie!.split(';')[0]!]
    const fleet = (await handler(page)) as LambdaResult
    expect(fleet.statusCode).toBe(200)
    expect(fleet.headers?.['content-type']).toMatch(/^text\/html/)
    expect(fleet.body).toContain(id)
    expect(((await handler(invocation(envelope, { method: 'GET', path: '/fleet' }))) as LambdaResult).statusCode).toBe(303)
  })
})

describe('the Lambda handler, misconfigured', () => {
  it('fails the invocation with an error naming HAPEDGE_BUCKET, and reads the environment again on the next one', async () => {
    vi.resetModules()
    const fresh = await import('../../functions/platforms/lambda/handler.ts')
    const event: HttpEvent = envelopes['Lambda function URL']
    vi.stubEnv('HAPEDGE_BUCKET', undefined)
    await expect(fresh.handler(event)).rejects.toThrow(/^hapedge lambda configuration: HAPEDGE_BUCKET is not set: the S3 bucket that holds the clusters$/)
    vi.stubEnv('HAPEDGE_BUCKET', BUCKET)
    expect(await fresh.handler(event)).toMatchObject({ statusCode: 200 })
  })
})

describe('the Lambda scheduled entry', () => {
  it('collects the garbage of every cluster in the bucket and leaves each current generation whole', async () => {
    const store = createS3Store({ client: loopbackClient(server.endpoint), bucket: BUCKET })
    const cluster = `gc-${Date.now().toString(36)}`
    for (const paths of [['/'], ['/', '/a'], ['/', '/b']])
      await commitEvents(
        { store, cluster, options: {}, context: coldContext() },
        app(1, paths).map((object) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })),
      )
    const count = async () => {
      let objects = 0
      for await (const _ of store.list(`clusters/${cluster}/`)) objects++
      return objects
    }
    const before = await count()
    const outcomes = await collectGarbageHandler(
      { source: 'aws.events', 'detail-type': 'Scheduled Event' },
      {},
      { ...environment(server.endpoint), HAPEDGE_GC_KEEP: '1', HAPEDGE_GC_GRACE_SECONDS: '0' },
    )
    expect(outcomes.find((outcome) => outcome.cluster === cluster)).toMatchObject({ report: { generation: 3, complete: true } })
    expect(await count()).toBeLessThan(before)
    const head = await readHead(store, clusterKeys(cluster))
    expect(await readGeneration(store, cluster, head!.head.manifest, coldContext())).toEqual(fullRebuild(app(1, ['/', '/b'])).files)
  })

  it('refuses a HAPEDGE_GC_KEEP that is not a number of generations, naming it, before it collects anything', async () => {
    await expect(collectGarbageHandler({}, {}, { ...environment(server.endpoint), HAPEDGE_GC_KEEP: '0', HAPEDGE_GC_GRACE_SECONDS: '0' })).rejects.toThrow(
      'HAPEDGE_GC_KEEP "0": a whole number of generations, at least 1',
    )
  })

  it('with HAPEDGE_SECRET, marks through the sealed nodes of a registered cluster', async () => {
    const secret = 'lambda-deployment-secret-0123456789abcdef'
    const raw = createS3Store({ client: loopbackClient(server.endpoint), bucket: BUCKET })
    const store = sealedStore(raw, { current: secret }, nodeSha256)
    const cluster = `gc-sealed-${Date.now().toString(36)}`
    await new Registry(raw, nodeSha256, systemClock).register(clusterSettings.parse({ id: cluster }))
    for (const paths of [['/'], ['/', '/a'], ['/', '/b']])
      await commitEvents(
        { store, cluster, options: {}, context: coldContext() },
        app(1, paths).map((object) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })),
      )
    const head = await readHead(store, clusterKeys(cluster))
    expect(isSealedBody((await raw.get(`clusters/${cluster}/blobs/${head!.head.manifest}`))!.body)).toBe(true)
    const outcomes = await collectGarbageHandler(
      {},
      {},
      { ...environment(server.endpoint), HAPEDGE_SECRET: secret, HAPEDGE_GC_KEEP: '1', HAPEDGE_GC_GRACE_SECONDS: '0' },
    )
    expect(outcomes.find((outcome) => outcome.cluster === cluster)).toMatchObject({
      report: { generation: 3, complete: true, deleted: expect.arrayContaining([expect.any(String)]) },
    })
    expect(await readGeneration(store, cluster, head!.head.manifest, coldContext())).toEqual(fullRebuild(app(1, ['/', '/b'])).files)
  })
})
