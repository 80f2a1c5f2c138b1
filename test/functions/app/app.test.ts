import { sha256Text } from '../../../core/hash.ts'
import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { StorageError } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { faultyStore } from '../../support/store-faults.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

describe('the HTTP API', () => {
  it('answers liveness, Prometheus metrics, and a JSON 404 elsewhere', async () => {
    const { call } = harness()
    expect(await (await call('GET', '/healthz')).json()).toEqual({ ok: true })
    const missing = await call('GET', '/v1/nothing')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: { message: 'no route GET /v1/nothing' } })
    const metrics = await (await call('GET', '/metrics')).text()
    expect(metrics).toMatch(/^hapedge_requests_total\{route="\/healthz",status="200"\} 1$/m)
    expect(metrics).toMatch(/^hapedge_request_duration_seconds_count\{route="\/healthz"\} 1$/m)
  })

  it('shows per-cluster series to the admin token only; anyone else gets them summed, with no cluster id', async () => {
    const { call, register, events } = harness()
    const sent = { 'prod-eu': app(1), 'prod-us': [...app(2), ...app(3)] }
    const tokens: Record<string, string> = {}
    for (const [id, objects] of Object.entries(sent)) {
      tokens[id] = await register(id)
      await events(id, tokens[id], objects.map(put))
    }
    const open = await (await call('GET', '/metrics')).text()
    expect(open).not.toMatch(/cluster=|prod-/)
    expect(open).toMatch(new RegExp(`^hapedge_events_total ${sent['prod-eu'].length + sent['prod-us'].length}$`, 'm'))
    const admin = await (await call('GET', '/metrics', ADMIN)).text()
    for (const [id, objects] of Object.entries(sent)) expect(admin).toMatch(new RegExp(`^hapedge_events_total\\{cluster="${id}"\\} ${objects.length}$`, 'm'))
    const clusterToken = await call('GET', '/metrics', tokens['prod-eu'])
    expect(clusterToken.status).toBe(401)
  })

  it('registers clusters with the admin token, shows each token once, and lists them with their generation', async () => {
    const { call, register, events } = harness()
    expect((await call('POST', '/v1/clusters', undefined, { id: 'prod-eu' })).status).toBe(401)
    expect((await call('POST', '/v1/clusters', 'not-the-admin-token', { id: 'prod-eu' })).status).toBe(401)
    const token = await register('prod-eu', { httpBind: '0.0.0.0:8080' })
    expect(token).toMatch(/^hpe\.prod-eu\.[\w-]{43}$/)
    const again = await call('POST', '/v1/clusters', ADMIN, { id: 'prod-eu' })
    expect(again.status).toBe(409)
    const bad = await call('POST', '/v1/clusters', ADMIN, { id: 'Prod_EU' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: { message: expect.stringMatching(/DNS label/), path: 'id' } })
    expect(await (await call('POST', '/v1/clusters', ADMIN, { id: 'x', httpsBind: 'everywhere' })).json()).toMatchObject({ error: { path: 'httpsBind' } })

    await events('prod-eu', token, app(1).map(put))
    const listed = (await (await call('GET', '/v1/clusters', ADMIN)).json()) as { clusters: Record<string, unknown>[] }
    expect(listed.clusters).toEqual([expect.objectContaining({ id: 'prod-eu', generation: 1, httpBind: '0.0.0.0:8080', lastEventAt: expect.any(String) })])
    expect(JSON.stringify(listed)).not.toMatch(/tokenSha256|hpe\./)
  })

  it('refuses every cluster route without a token (401), with a wrong one (401) and with another cluster’s (403)', async () => {
    const { call, register } = harness()
    const mine = await register('mine')
    const theirs = await register('theirs')
    const sha = '0'.repeat(64)
    const routes: [string, string, unknown?][] = [
      ['POST', '/v1/clusters/mine/events', { events: [] }],
      ['POST', '/v1/clusters/mine/audit', { apiVersion: 'audit.k8s.io/v1', kind: 'EventList', items: [] }],
      ['PUT', '/v1/clusters/mine/objects', { apiVersion: 'v1', kind: 'List', items: [] }],
      ['GET', '/v1/clusters/mine/head'],
      ['GET', `/v1/clusters/mine/manifests/${sha}`],
      ['GET', `/v1/clusters/mine/blobs/${sha}`],
      ['POST', '/v1/clusters/mine/agents/haproxy-0', { generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }],
      ['GET', '/v1/clusters/mine/agents'],
    ]
    for (const [method, path, body] of routes) {
      expect((await call(method, path, undefined, body)).status, `${method} ${path} without a token`).toBe(401)
      expect((await call(method, path, `${mine}x`, body)).status, `${method} ${path} with a wrong token`).toBe(401)
      expect((await call(method, path, theirs, body)).status, `${method} ${path} with another cluster's token`).toBe(403)
      expect((await call(method, path.replace('/mine/', '/nobody/'), mine, body)).status, `${method} ${path} of an unknown cluster`).toBe(403)
    }
    expect((await call('GET', '/v1/clusters', mine)).status).toBe(401)
  })

  it('commits watch events and answers the generation, what changed, the reload and nothing more when nothing changed', async () => {
    const { register, events } = harness()
    const token = await register('prod-eu')
    const first = await events('prod-eu', token, app(1).map(put))
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({
      generation: 1,
      manifest: expect.stringMatching(/^[0-9a-f]{64}$/),
      committed: true,
      changed: { files: expect.any(Number), bytes: expect.any(Number) },
      reload: true,
      reasons: expect.any(Array),
      rejected: [],
      warnings: [],
      warningCount: 0,
      ignored: { otherClass: 0, noDefaultClass: 0 },
      stale: 0,
    })
    const same = await (await events('prod-eu', token, app(1).map(put))).json()
    expect(same).toMatchObject({ generation: 1, committed: false, changed: { files: 0, bytes: 0 }, reload: false })
  })

  it('commits concurrent requests to one cluster together, each answered with the generation that holds its events', async () => {
    const { register, events, store } = harness()
    const token = await register('prod-eu')
    const hostile = ingress({ name: 'evil', rules: [{ host: '-bad-.example.com', paths: [{ path: '/', service: 'app-1' }] }] })
    const requests = Array.from({ length: 20 }, (_, n) => (n === 7 ? [...app(n), hostile] : app(n)))
    const answers = (await Promise.all(requests.map(async (objects) => (await events('prod-eu', token, objects.map(put))).json()))) as {
      generation: number
      manifest: string
      rejected: unknown[]
    }[]
    const generations = new Set(answers.map((answer) => answer.generation))
    expect(generations.size).toBeLessThan(requests.length)
    expect(answers.map((answer) => answer.rejected.length)).toEqual(requests.map((_, n) => (n === 7 ? 1 : 0)))
    const last = answers.reduce((a, b) => (a.generation > b.generation ? a : b))
    expect(last.generation).toBe(generations.size)
    expect(await readGeneration(store, 'prod-eu', last.manifest, coldContext())).toEqual(fullRebuild(requests.flat()).files)
  })

  it('names the field of a malformed batch (400), and rejects a malformed object alone with its reason while the rest applies', async () => {
    const { register, events, store } = harness()
    const token = await register('prod-eu')
    const bad = await events('prod-eu', token, [put(app(1)[0]), { type: 'UPSERTED', object: {} }])
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: { message: expect.stringMatching(/ADDED.*MODIFIED.*DELETED/), path: 'events[1].type' } })

    const hostile = ingress({ name: 'evil', rules: [{ host: 'evil.example.com\n    http-request deny', paths: [{ path: '/', service: 'app-1' }] }] })
    const result = (await (await events('prod-eu', token, [...app(1).map(put), put(hostile)])).json()) as {
      rejected: { object: string; reason: string }[]
      manifest: string
    }
    expect(result.rejected).toEqual([{ object: 'Ingress default/evil', reason: expect.stringMatching(/^spec\.rules\[0\]\.host: /) }])
    const files = await readGeneration(store, 'prod-eu', result.manifest, coldContext())
    expect(files).toEqual(fullRebuild([...app(1), hostile]).files)
    expect([...files.values()].join('')).not.toContain('evil.example.com')
  })

  it('refuses a body over the limit with 413 before reading it whole, with or without Content-Length', async () => {
    const { register, call, app: server } = harness({ limits: { bodyBytes: 2048 } })
    const token = await register('prod-eu')
    const big = JSON.stringify({ events: Array.from({ length: 40 }, () => put(app(1)[0])) })
    const declared = await call('POST', '/v1/clusters/prod-eu/events', token, big)
    expect(declared.status).toBe(413)
    expect(await declared.json()).toEqual({ error: { message: 'the body is larger than 2048 bytes; send smaller batches' } })
    const stream = new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode(big)), controller.close()) })
    const request = new Request('http://hapedge/v1/clusters/prod-eu/events', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(request.headers.get('content-length')).toBeNull()
    const streamed = await server.request(request)
    expect(streamed.status).toBe(413)
    const unsupported = await call('POST', '/v1/clusters/prod-eu/events', token, undefined, { 'content-type': 'text/plain' })
    expect(unsupported.status).toBe(415)
  })

  it('serves HEAD, and manifests and blobs by sha256, immutable and only the cluster’s own', async () => {
    const { register, events, call } = harness()
    const a = await register('a')
    const b = await register('b')
    expect((await call('GET', '/v1/clusters/a/head', a)).status).toBe(404)
    const committed = (await (await events('a', a, app(1).map(put))).json()) as { manifest: string }
    const head = await (await call('GET', '/v1/clusters/a/head', a)).json()
    expect(head).toEqual({ generation: 1, manifest: committed.manifest, snapshot: expect.objectContaining({ sha256: expect.any(String) }) })
    const manifest = await call('GET', `/v1/clusters/a/manifests/${committed.manifest}`, a)
    expect(manifest.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const record = (await manifest.json()) as { version: number; files: number }
    expect(record).toMatchObject({ version: 2, files: expect.any(Number) })
    expect((await call('GET', `/v1/clusters/b/manifests/${committed.manifest}`, b)).status).toBe(404)
    expect((await call('GET', '/v1/clusters/a/blobs/..%2F..%2FHEAD', a)).status).toBe(400)
  })

  it('answers HEAD asked with the generation a reader holds with the blobs that reader lacks, each under its sha256', async () => {
    const { register, events, call } = harness()
    const token = await register('a')
    const first = (await (await events('a', token, app(1).map(put))).json()) as { manifest: string }
    const second = (await (await events('a', token, app(2).map(put))).json()) as { manifest: string }
    const head = (await (await call('GET', `/v1/clusters/a/head?have=${first.manifest}`, token)).json()) as { manifest: string; blobs: Record<string, string> }
    expect(head.manifest).toBe(second.manifest)
    expect(Object.keys(head.blobs)).toContain(second.manifest)
    for (const [sha256, text] of Object.entries(head.blobs)) expect(sha256Text(text)).toBe(sha256)
    expect((await (await call('GET', `/v1/clusters/a/head?have=${second.manifest}`, token)).json()).blobs).toEqual({})
    const bad = await call('GET', '/v1/clusters/a/head?have=HEAD', token)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: { message: 'must be a lowercase hex sha256', path: 'have' } })
  })

  it('takes a have= that names a stored blob other than a manifest as unknown, answering the whole generation', async () => {
    const { register, events, call } = harness()
    const token = await register('a')
    const { manifest } = (await (await events('a', token, app(1).map(put))).json()) as { manifest: string }
    const headWith = async (have: string) => {
      const answer = await call('GET', `/v1/clusters/a/head?have=${have}`, token)
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { blobs: Record<string, string> }).blobs
    }
    const whole = await headWith('0'.repeat(64))
    const notAManifest = Object.keys(whole).find((sha256) => sha256 !== manifest)!
    expect(await headWith(notAManifest)).toEqual(whole)
  })

  it('resyncs from a full List: objects it no longer holds are deleted, the rest is unchanged', async () => {
    const { register, events, call, store } = harness()
    const token = await register('prod-eu')
    await events('prod-eu', token, [...app(1), ...app(2)].map(put))
    const response = await call('PUT', '/v1/clusters/prod-eu/objects', token, {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: app(1),
    })
    expect(response.status).toBe(200)
    const { manifest, generation } = (await response.json()) as { manifest: string; generation: number }
    expect(generation).toBe(2)
    expect(await readGeneration(store, 'prod-eu', manifest, coldContext())).toEqual(fullRebuild(app(1)).files)
  })

  it('answers 503 with Retry-After when HEAD keeps moving, and when storage fails', async () => {
    const inner = createMemoryStore()
    const racing = {
      ...inner,
      put: async (key: string, body: Uint8Array | string, condition?: Parameters<typeof inner.put>[2]) =>
        key.endsWith('/HEAD') ? undefined : inner.put(key, body, condition),
    }
    const { register, events } = harness({ store: racing })
    const token = await register('prod-eu')
    const contended = await events('prod-eu', token, app(1).map(put))
    expect(contended.status).toBe(503)
    expect(contended.headers.get('retry-after')).toBe('1')
    expect(await contended.json()).toEqual({ error: { message: expect.stringMatching(/HEAD moved under 6 attempts/) } })

    const failing = harness({
      store: faultyStore(createMemoryStore(), (operation, key) =>
        operation === 'put' && key.includes('/blobs/') ? new StorageError('put', key, new Error('connect ETIMEDOUT')) : undefined,
      ),
    })
    const failed = await failing.events('prod-eu', await failing.register('prod-eu'), app(1).map(put))
    expect(failed.status).toBe(503)
    expect(failed.headers.get('retry-after')).toBe('2')
    expect(await failed.json()).toEqual({
      error: { message: expect.stringMatching(/^storage put clusters\/prod-eu\/blobs\/[0-9a-f]{64} failed: connect ETIMEDOUT$/) },
    })
  })
})
