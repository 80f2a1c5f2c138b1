import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/free-port.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { hapedge } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

let served: Served
let token = ''
let data = ''

beforeAll(async () => {
  data = await makeTempDir('hapedge-routes-')
  served = await startServe(['--data', data])
  const call = (method: string, path: string, bearer: string, body: unknown) =>
    fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  token = ((await (await call('POST', '/v1/clusters', served.adminToken, { id: 'shop' })).json()) as { token: string }).token
  const objects = [
    ingress({
      name: 'web',
      rules: [
        {
          host: 'shop.example.com',
          paths: [
            { path: '/', service: 'web' },
            { path: '/cart', pathType: 'Exact', service: 'cart' },
          ],
        },
      ],
    }),
    ingress({ name: 'api', rules: [{ host: 'api.example.com', paths: [{ path: '/v1', service: 'web' }] }] }),
    service('web'),
    service('cart'),
    endpointSlice('web', ['10.0.0.7']),
  ]
  const answer = await call('POST', '/v1/clusters/shop/events', token, { events: objects.map((object) => ({ type: 'ADDED', object })) })
  expect(answer.status).toBe(200)
})

afterAll(async () => {
  await served?.stop()
  await removeTempDir(data)
})

describe('hapedge routes', () => {
  it('prints every host and path of the served generation with its backend and servers', async () => {
    const run = await hapedge(['routes', '--source', served.url, '--cluster', 'shop', '--token', token])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toBe('generation 1; requests no rule matches: 404')
    expect(lines.slice(2).map((line) => line.split('\t').slice(0, 5))).toEqual([
      ['api.example.com', 'Prefix', '/v1', 'default_web_80', '10.0.0.7:8080'],
      ['shop.example.com', 'Prefix', '/', 'default_web_80', '10.0.0.7:8080'],
      ['shop.example.com', 'Exact', '/cart', 'default_cart_80', 'none: 503'],
    ])
  })

  it('narrows to one host, and prints JSON pages with --json', async () => {
    const run = await hapedge(['routes', '--source', served.url, '--cluster', 'shop', '--token', token, '--host', 'api.example.com', '--json'])
    expect(run.code).toBe(0)
    const page = JSON.parse(run.stdout) as { routes: { host: string; owner: string }[] }
    expect(page.routes).toEqual([expect.objectContaining({ host: 'api.example.com', owner: 'Ingress default/api' })])
  })

  it('says what the function answered, or why it could not be reached, without a stack', async () => {
    const wrong = await hapedge(['routes', '--source', served.url, '--cluster', 'shop', '--token', 'hpe.shop.wrong'])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('401 not a valid token for cluster shop')
    const closed = `http://127.0.0.1:${await freePort()}`
    const gone = await hapedge(['routes', '--source', closed, '--cluster', 'shop', '--token', token])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain(`cannot reach ${closed}: connect ECONNREFUSED`)
    expect(gone.stderr).not.toMatch(/\n\s+at /)
  })
})
