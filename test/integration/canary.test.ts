import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { request } from '../support/http-client.ts'
import { ingress } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Canary Ingresses through the real HAProxy: a second Ingress for a host and path with
 * `canary: "true"` takes the requests its header, then its cookie, then its weight give it
 * (ingress-nginx's order), in the ingress-nginx and the hapedge.io spelling; a weight change is a
 * runtime map edit that the same worker applies to the next requests.
 */

const NGINX = 'nginx.ingress.kubernetes.io/'
const main = (host: string, path = '/', service = 'stable') =>
  ingress({
    name: `main-${host.split('.')[0]}${path === '/' ? '' : path.replaceAll('/', '-')}`,
    createdAt: '2024-01-01T00:00:00Z',
    rules: [{ host, paths: [{ path, service }] }],
  })
const canary = (host: string, annotations: Record<string, string>) =>
  ingress({
    name: `canary-${host.split('.')[0]}`,
    createdAt: '2024-02-01T00:00:00Z',
    annotations,
    rules: [{ host, paths: [{ path: '/', service: 'preview' }] }],
  })

/** The weighed host's canary: 20 in 100 at first. A total is hapedge.io's: ingress-nginx's draws from at least 100. */
const weighed = (weight: string, total?: string) =>
  canary('weighed.test', { [`${NGINX}canary`]: 'true', [`${NGINX}canary-weight`]: weight, ...(total ? { 'hapedge.io/canary-weight-total': total } : {}) })

const REQUESTS = 1000
/**
 * How far the canary's share of REQUESTS may be from weight/total: 5 points. Its standard deviation
 * is sqrt(p(1-p)/n), at most 1.6 points for n = 1000, so 5 points is over 3 deviations: a correct
 * split fails it about once in a thousand runs, a wrong one (another weight, no draw) always.
 */
const TOLERANCE = 0.05

describe('canary Ingresses', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  const get = (host: string, headers: Record<string, string> = {}, path = '/') =>
    request(`http://127.0.0.1:${cluster.httpPort}${path}`, { headers: { host, ...headers } }).then(answeredBy)

  /** How many of each batch of 50 the canary answered, REQUESTS in all. */
  async function canaryBatches(host: string): Promise<number[]> {
    const perBatch: number[] = []
    for (let sent = 0; sent < REQUESTS; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => get(host)))
      expect(answers.every((answer) => answer === 'preview' || answer === 'stable')).toBe(true)
      perBatch.push(answers.filter((answer) => answer === 'preview').length)
    }
    return perBatch
  }

  /** The share of REQUESTS the canary answered. */
  const canaryShare = async (host: string) => (await canaryBatches(host)).reduce((sum, count) => sum + count, 0) / REQUESTS

  /**
   * Expects the canary's share within TOLERANCE of `expected`. A miss names each batch's count, so
   * that a rare draw (spread over the batches) can be told from answers given at the weight before (the first batches).
   */
  async function expectShare(host: string, expected: number): Promise<void> {
    const perBatch = await canaryBatches(host)
    const share = perBatch.reduce((sum, count) => sum + count, 0) / REQUESTS
    expect(Math.abs(share - expected), `share ${share}, expected ${expected}; canary answers per batch of 50: ${perBatch.join(' ')}`).toBeLessThanOrEqual(
      TOLERANCE,
    )
  }

  beforeAll(async () => {
    services = await startServices(['stable', 'preview', 'other'])
    cluster = await startRuntimeCluster(
      [
        ...services.objects,
        main('header.test'),
        main('header.test', '/other', 'other'),
        // ingress-nginx's spelling: the header decides, then the cookie, then the weight (100: every request left).
        canary('header.test', {
          [`${NGINX}canary`]: 'true',
          [`${NGINX}canary-by-header`]: 'X-Canary',
          [`${NGINX}canary-by-cookie`]: 'canary_me',
          [`${NGINX}canary-weight`]: '100',
        }),
        main('value.test'),
        // hapedge.io's spelling: listed header values only; no weight, so nothing else.
        canary('value.test', { 'hapedge.io/canary': 'true', 'hapedge.io/canary-by-header': 'X-Beta', 'hapedge.io/canary-by-header-pattern': '^(yes|v2\\.1)$' }),
        // ingress-nginx's own example: NGINX searches the value for the pattern (cd|sz: a value that contains either).
        main('search.test'),
        canary('search.test', { [`${NGINX}canary`]: 'true', [`${NGINX}canary-by-header`]: 'Region', [`${NGINX}canary-by-header-pattern`]: 'cd|sz' }),
        main('start.test'),
        canary('start.test', { [`${NGINX}canary`]: 'true', [`${NGINX}canary-by-header`]: 'X-Version', [`${NGINX}canary-by-header-pattern`]: '^v2\\.' }),
        // Any other pattern of the safe subset, re-emitted by hapedge: a version with a release-candidate suffix.
        main('general.test'),
        canary('general.test', {
          [`${NGINX}canary`]: 'true',
          [`${NGINX}canary-by-header`]: 'X-Version',
          [`${NGINX}canary-by-header-pattern`]: '^v[0-9]+\\.[0-9]+-rc[0-9]*$',
        }),
        main('exact.test'),
        canary('exact.test', { [`${NGINX}canary`]: 'true', [`${NGINX}canary-by-header`]: 'X-Beta', [`${NGINX}canary-by-header-value`]: 'on' }),
        main('weighed.test'),
        weighed('20'),
      ],
      'hapedge-canary',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('by header: "always" sends to the canary and "never" to the main Service, whatever the cookie and weight; another value falls through', async () => {
    expect(await get('header.test', { 'x-canary': 'always', cookie: 'canary_me=never' })).toBe('preview')
    expect(await get('header.test', { 'x-canary': 'never', cookie: 'canary_me=always' })).toBe('stable')
    expect(await get('header.test', { 'x-canary': 'never' })).toBe('stable')
    expect(await get('header.test', { 'x-canary': 'maybe', cookie: 'canary_me=never' })).toBe('stable')
    // The whole header, as NGINX reads it: `never, always` is neither.
    expect(await get('header.test', { 'x-canary': 'never, always', cookie: 'canary_me=never' })).toBe('stable')
  })

  it('by cookie: "always" and "never" decide when the header does not; then the weight', async () => {
    expect(await get('header.test', { cookie: 'a=1; canary_me=never' })).toBe('stable')
    expect(await get('header.test', { cookie: 'canary_me=always' })).toBe('preview')
    expect(await get('header.test', { cookie: 'canary_me=perhaps' })).toBe('preview')
    expect(await get('header.test')).toBe('preview')
  })

  it('takes only its own path: another Ingress’s longer path on the host keeps its Service', async () => {
    expect(await get('header.test', { 'x-canary': 'always' }, '/other/x')).toBe('other')
  })

  it('by header value: only a listed value (by-header-value, or the pattern’s alternatives) sends to the canary; "always" is no longer special', async () => {
    expect(await get('value.test', { 'x-beta': 'yes' })).toBe('preview')
    expect(await get('value.test', { 'x-beta': 'v2.1' })).toBe('preview')
    expect(await get('value.test', { 'x-beta': 'v2x1' })).toBe('stable')
    expect(await get('value.test', { 'x-beta': 'always' })).toBe('stable')
    expect(await get('value.test')).toBe('stable')
    expect(await get('exact.test', { 'x-beta': 'on' })).toBe('preview')
    expect(await get('exact.test', { 'x-beta': 'On' })).toBe('stable')
  })

  it('by header pattern: literals found anywhere in the value, or at its start with ^, as NGINX searches; the rest falls through', async () => {
    expect(await get('search.test', { region: 'cd' })).toBe('preview')
    expect(await get('search.test', { region: 'eu-sz-1' })).toBe('preview')
    expect(await get('search.test', { region: 'us' })).toBe('stable')
    expect(await get('search.test')).toBe('stable')
    expect(await get('start.test', { 'x-version': 'v2.3' })).toBe('preview')
    expect(await get('start.test', { 'x-version': 'v2x' })).toBe('stable')
    expect(await get('start.test', { 'x-version': 'av2.3' })).toBe('stable')
  })

  it('by a general header pattern of the safe subset: searched as NGINX does, through the expression hapedge re-emits', async () => {
    expect(await get('general.test', { 'x-version': 'v2.10-rc1' })).toBe('preview')
    expect(await get('general.test', { 'x-version': 'v10.0-rc' })).toBe('preview')
    expect(await get('general.test', { 'x-version': 'v2.10' })).toBe('stable')
    expect(await get('general.test', { 'x-version': 'xv2.1-rc1' })).toBe('stable')
    expect(await get('general.test')).toBe('stable')
  })

  it('a changed pattern is a runtime map edit, from the same worker', async () => {
    const before = await cluster.workers()
    const { plan, applied } = await cluster.atRuntime([
      modified(canary('search.test', { [`${NGINX}canary`]: 'true', [`${NGINX}canary-by-header`]: 'Region', [`${NGINX}canary-by-header-pattern`]: 'us|ca' })),
    ])
    expect(plan.reload).toBe(false)
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.canaryPatternsMap])
    expect(await get('search.test', { region: 'us-east' })).toBe('preview')
    expect(await get('search.test', { region: 'eu-sz-1' })).toBe('stable')
    expect(await cluster.workers()).toEqual(before)
  })

  it(`by weight: 20 of 100 sends 20% of ${REQUESTS} requests to the canary, within ${TOLERANCE * 100} points; 80 of 100, set at runtime, 80% from the same worker`, async () => {
    await expectShare('weighed.test', 0.2)
    const before = await cluster.workers()
    const { plan, applied } = await cluster.atRuntime([modified(weighed('80'))])
    expect(plan.reload).toBe(false)
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.canaryPrefixMap])
    await expectShare('weighed.test', 0.8)
    expect(await cluster.workers()).toEqual(before)
  })

  it('by weight and total: 1 of 4 sends a quarter; a weight of 0 none', async () => {
    await cluster.atRuntime([modified(weighed('1', '4'))])
    await expectShare('weighed.test', 0.25)
    await cluster.atRuntime([modified(weighed('0'))])
    expect(await canaryShare('weighed.test')).toBe(0)
  })
})
