import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * HTTPRoute method, header and query parameter matches through the real HAProxy, in the
 * specification's precedence: a method before headers, more headers before fewer, headers before
 * query parameters, across routes; a request no conditional match takes goes to the path's route
 * without conditions, else the next shorter prefix's.
 */

const header = (name: string, value: string, type?: string) => ({ name, value, ...(type ? { type } : {}) })

describe('HTTPRoute matches through HAProxy', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['base', 'header', 'method', 'query', 'both', 'search'])
    const older = '2024-01-01T00:00:00Z'
    cluster = await serveCluster([
      ...services.objects,
      gatewayClass(),
      gateway('edge', [{ name: 'http', hostname: '*.gw.test' }]),
      httpRoute({
        name: 'shop',
        createdAt: older,
        hostnames: ['m.gw.test'],
        rules: [
          { matches: [{ value: '/api', headers: [header('X-Env', 'canary')] }], backends: [{ service: 'header' }] },
          { matches: [{ value: '/api', method: 'POST' }], backends: [{ service: 'method' }] },
          { matches: [{ value: '/api', queryParams: [header('version', '2')] }], backends: [{ service: 'query' }] },
          { matches: [{ type: 'Exact', value: '/only', headers: [header('x-env', 'canary')] }], backends: [{ service: 'header' }] },
          { matches: [{ value: '/search', headers: [header('x-client', '^mobile-', 'RegularExpression')] }], backends: [{ service: 'search' }] },
          { backends: [{ service: 'base' }] },
        ],
      }),
      // Younger, but two headers come before one.
      httpRoute({
        name: 'team',
        createdAt: '2024-06-01T00:00:00Z',
        hostnames: ['m.gw.test'],
        rules: [{ matches: [{ value: '/api', headers: [header('x-env', 'canary'), header('x-team', 'a')] }], backends: [{ service: 'both' }] }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  const ask = (path: string, headers: Record<string, string> = {}, method = 'GET') => cluster.get('m.gw.test', path, { method, headers }).then(answeredBy)

  it('a request meeting no condition of its path goes to the next shorter prefix', async () => {
    expect(await ask('/api/x')).toBe('base')
    expect(await ask('/api')).toBe('base')
    expect(await ask('/api/x', { 'x-env': 'other' })).toBe('base')
  })

  it('a header, a method, a query parameter each take the requests that meet them', async () => {
    expect(await ask('/api/x', { 'X-ENV': 'canary' })).toBe('header')
    expect(await ask('/api/x', {}, 'POST')).toBe('method')
    expect(await ask('/api/x?version=2')).toBe('query')
    expect(await ask('/api/x?version=3')).toBe('base')
  })

  it('in the specification’s precedence: method, then more headers, then query parameters, before the older route', async () => {
    expect(await ask('/api/x', { 'x-env': 'canary' }, 'POST')).toBe('method')
    expect(await ask('/api/x?version=2', { 'x-env': 'canary' })).toBe('header')
    expect(await ask('/api/x', { 'x-env': 'canary', 'x-team': 'a' })).toBe('both')
  })

  it('an Exact path with a condition, and a RegularExpression searched in a header', async () => {
    expect(await ask('/only', { 'x-env': 'canary' })).toBe('header')
    expect(await ask('/only')).toBe('base')
    expect(await ask('/only/x', { 'x-env': 'canary' })).toBe('base')
    expect(await ask('/search/q', { 'x-client': 'mobile-ios' })).toBe('search')
    expect(await ask('/search/q', { 'x-client': 'desktop mobile-ios' })).toBe('base')
    expect(await ask('/search/q')).toBe('base')
  })
})
