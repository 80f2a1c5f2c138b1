import { describe, expect, it } from 'vitest'
import { collectAllGarbage } from '../../../core/garbage/collect-all-garbage.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { BACKEND_SNIPPET } from '../../../core/kube/service.ts'
import { SET_TIMEOUT_RULES } from '../../../core/render/render-timeouts.ts'
import { FILES } from '../../../core/render/files.ts'
import { app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { ingress, service } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

/** The start of app-1's backend section: its rules, then these lines. */
const backendStart = (...rows: string[]) => ['backend default_app-1_80', ...SET_TIMEOUT_RULES, ...rows.map((row) => `    ${row}`)].join('\n')

interface Patched {
  generation: number | null
  committed: boolean
  reload: boolean
  reasons: string[]
}

/** A cluster with two apps, one Ingress of another class, and app-1's Service carrying a snippet. */
function objects(snippet = 'http-response set-header X-Snippet yes') {
  return [
    ...app(1).slice(0, 1),
    service('app-1', [{ port: 80 }], 'default', { [BACKEND_SNIPPET]: snippet }),
    ...app(1).slice(2),
    ...app(2),
    ingress({ name: 'other', className: 'nginx', rules: [{ host: 'other.example.com', paths: [{ path: '/', service: 'app-2' }] }] }),
  ]
}

async function setup() {
  const h = harness()
  const token = await h.register('prod-eu')
  const written = (await (await h.events('prod-eu', token, objects().map(put))).json()) as { generation: number; rejected: unknown[] }
  const patch = async (body: unknown) => {
    const response = await h.call('PATCH', '/v1/clusters/prod-eu', ADMIN, body)
    expect(response.status, JSON.stringify(body)).toBe(200)
    return (await response.json()) as Patched & Record<string, unknown>
  }
  const head = async () => (await (await h.call('GET', '/v1/clusters/prod-eu/head', token)).json()) as { generation: number; manifest: string }
  const files = async () => readGeneration(h.store, 'prod-eu', (await head()).manifest, coldContext())
  return { ...h, token, written, patch, head, files }
}

describe('a cluster’s settings take effect when they change', () => {
  it('renders a changed ingress class and binds at once, byte-identical to a full rebuild under them; the same PATCH again renders nothing', async () => {
    const { written, patch, files } = await setup()
    expect(written.generation).toBe(1)
    const options = { ingressClass: 'nginx', httpBind: '127.0.0.1:8080' }
    const patched = await patch(options)
    expect(patched).toMatchObject({ id: 'prod-eu', ...options, generation: 2, committed: true, reload: true })
    const now = await files()
    expect(now).toEqual(fullRebuild(objects(), options).files)
    expect(now.get(FILES.frontend)).toContain('bind 127.0.0.1:8080')
    expect([...now.values()].join('')).toContain('other.example.com')
    expect([...now.values()].join('')).not.toContain('app-1.example.com')

    expect(await patch(options)).toMatchObject({ generation: 2, committed: false, reload: false })
    expect(await patch({ agentOrigins: ['http://10.0.0.7:9000'] })).toMatchObject({ generation: 2, committed: false })
  })

  it('commits the next write under the record as changed, not the settings of the writes before it', async () => {
    const { patch, events, token, files } = await setup()
    await patch({ ingressClass: 'nginx' })
    await events('prod-eu', token, app(3).map(put))
    expect(await files()).toEqual(fullRebuild([...objects(), ...app(3)], { ingressClass: 'nginx' }).files)
  })

  it('reports a snippet while snippets are forbidden and serves the backend without it; allowing them renders it (a reload), forbidding again removes it', async () => {
    const { written, patch, files } = await setup()
    const refused = {
      object: 'Service default/app-1',
      reason: expect.stringMatching(/^snippets are not allowed on this cluster: hapedge\.io\/backend-config-snippet is ignored/),
    }
    expect(written.rejected).toEqual([refused])
    expect((await files()).get(FILES.backends)).not.toContain('X-Snippet')
    expect((await files()).get(FILES.backends)).toContain('server s1 10.0.0.2:8080')

    expect(await patch({ snippets: 'allowed' })).toMatchObject({
      snippets: 'allowed',
      generation: 2,
      committed: true,
      reload: true,
      reasons: ["backend default_app-1_80's configuration snippet changed"],
    })
    expect(await files()).toEqual(fullRebuild(objects(), { snippets: 'allowed' }).files)
    expect((await files()).get(FILES.backends)).toContain(backendStart('http-response set-header X-Snippet yes', 'server s1 10.0.0.2:8080'))

    expect(await patch({ snippets: 'forbidden' })).toMatchObject({ generation: 3, committed: true, reload: true })
    expect(await files()).toEqual(fullRebuild(objects(), {}).files)
  })

  it('refuses a snippet that would escape its backend, even when allowed, naming the Service and the line; the routes keep working', async () => {
    const { register, events, store, call } = harness()
    const token = await register('prod-eu', { snippets: 'allowed' })
    const hostile = objects('timeout server 1s\nfrontend evil\n bind :9999')
    const result = (await (await events('prod-eu', token, hostile.map(put))).json()) as { manifest: string; rejected: unknown[] }
    expect(result.rejected).toEqual([
      {
        object: 'Service default/app-1',
        reason: 'hapedge.io/backend-config-snippet line 2 opens a section ("frontend"), which would escape the backend; its backends are rendered without it',
      },
    ])
    const files = await readGeneration(store, 'prod-eu', result.manifest, coldContext())
    expect(files).toEqual(fullRebuild(hostile, { snippets: 'allowed' }).files)
    expect([...files.values()].join('')).not.toMatch(/evil|bind :9999|timeout server 1s/)
    expect(files.get(FILES.backends)).toContain(backendStart('server s1 10.0.0.2:8080'))
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toMatchObject({ snippets: 'allowed' })
  })

  it('answers a PATCH of a cluster with no generation yet without rendering', async () => {
    const { call, register } = harness()
    await register('prod-eu')
    const response = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, { ingressClass: 'nginx' })
    expect(await response.json()).toMatchObject({ ingressClass: 'nginx', generation: null, committed: false })
  })

  it('refuses bad snippet and retention settings at registration and in a PATCH with the field’s path (400)', async () => {
    const { call, register } = harness()
    await register('prod-eu')
    const cases: [unknown, string][] = [
      [{ snippets: 'yes' }, 'snippets'],
      [{ retention: { generations: 0 } }, 'retention.generations'],
      [{ retention: { generations: 1001 } }, 'retention.generations'],
      [{ retention: { generations: 2.5 } }, 'retention.generations'],
      [{ retention: {} }, 'retention.generations'],
      [{ retention: { generations: 3, keep: 3 } }, 'retention'],
      [{ retention: 5 }, 'retention'],
    ]
    for (const [body, path] of cases) {
      for (const [method, route, sent] of [
        ['PATCH', '/v1/clusters/prod-eu', body],
        ['POST', '/v1/clusters', { id: 'other', ...(body as object) }],
      ] as const) {
        const response = await call(method, route, ADMIN, sent)
        expect(response.status, `${method} ${JSON.stringify(sent)}`).toBe(400)
        expect(await response.json(), `${method} ${JSON.stringify(sent)}`).toEqual({ error: { message: expect.any(String), path } })
      }
    }
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toMatchObject({ snippets: 'forbidden' })
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).not.toHaveProperty('retention')
  })
})

describe('a cluster’s retention', () => {
  it('keeps as many generations as the cluster’s record says, the deployment’s number for a cluster without one, and null in a PATCH restores that', async () => {
    const clock = instantClock()
    const { call, register, events, store } = harness({ clock })
    const short = await register('short', { retention: { generations: 2 } })
    const long = await register('long')
    for (let n = 1; n <= 5; n++) {
      await events('short', short, app(n).map(put))
      await events('long', long, app(n).map(put))
    }
    expect(await (await call('GET', '/v1/clusters/short', ADMIN)).json()).toMatchObject({ retention: { generations: 2 } })
    clock.advance(3_600_000)
    await collectAllGarbage(store, coldContext, { clock, keep: 4, graceMs: 0 })
    expect(await generationRecords(store, 'short')).toEqual([4, 5])
    expect(await generationRecords(store, 'long')).toEqual([2, 3, 4, 5])

    expect(await (await call('PATCH', '/v1/clusters/short', ADMIN, { retention: null })).json()).not.toHaveProperty('retention')
    expect(await (await call('PATCH', '/v1/clusters/long', ADMIN, { retention: { generations: 1 } })).json()).toMatchObject({ retention: { generations: 1 } })
    await events('short', short, app(6).map(put))
    await collectAllGarbage(store, coldContext, { clock, keep: 4, graceMs: 0 })
    expect(await generationRecords(store, 'short')).toEqual([4, 5, 6])
    expect(await generationRecords(store, 'long')).toEqual([5])
  })
})

async function generationRecords(store: ReturnType<typeof harness>['store'], cluster: string): Promise<number[]> {
  const found: number[] = []
  for await (const object of store.list(`clusters/${cluster}/generations/`)) found.push(Number(object.key.slice(object.key.lastIndexOf('/') + 1)))
  return found.sort((a, b) => a - b)
}
