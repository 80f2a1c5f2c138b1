import { describe, expect, it } from 'vitest'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ingress, ingressClass } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const json = async (response: Response) => (await response.json()) as Record<string, any>

/** Ingresses this cluster (class `hapedge`) does not serve because of their class: valid or not, they are not rejections. */
const theirs = [
  ingress({ name: 'nginx-web', className: 'nginx', rules: [{ host: 'web.example.com', paths: [{ service: 'app-1' }] }] }),
  ingress({ name: 'nginx-broken', className: 'nginx', rules: [{ host: 'Bad Host', paths: [{ service: 'app-1' }] }] }),
  ingress({ name: 'traefik-api', classAnnotation: 'traefik', className: null, rules: [{ host: 'api.example.com', paths: [{ service: 'app-1' }] }] }),
]
const unclassed = [ingress({ name: 'unclassed', className: null, rules: [{ host: 'unclassed.example.com', paths: [{ service: 'app-1' }] }] })]

describe('Ingresses not served because of their class', () => {
  it('are counted in the write answer, the fleet, its page and the HAProxyCfg status, instead of "every object is served"', async () => {
    const h = harness()
    const token = await h.register('prod')
    const ignored = { otherClass: theirs.length, noDefaultClass: unclassed.length }
    const answer = await json(await h.events('prod', token, [...app(1), ...theirs, ...unclassed, ingressClass('hapedge', false)].map(put)))
    expect(answer).toMatchObject({ committed: true, rejected: [], ignored })

    expect((await json(await h.call('GET', '/v1/fleet', ADMIN))).clusters[0].counts).toMatchObject({
      ingresses: 1 + theirs.length + unclassed.length,
      rejected: 0,
      ignored,
    })
    expect((await json(await h.call('GET', '/v1/fleet/prod', ADMIN))).counts).toMatchObject({ rejected: 0, ignored })

    const status = await json(await h.call('GET', '/v1/clusters/prod/status', token))
    expect(status).toMatchObject({ rejectedCount: 0, ignored })
    const degraded = status.conditions.find((condition: { type: string }) => condition.type === 'Degraded')
    expect(degraded).toMatchObject({ status: 'False', reason: 'AsExpected' })
    expect(degraded.message).not.toMatch(/every object is served/)
    expect(degraded.message).toContain(`${theirs.length} Ingress(es) of other classes and ${unclassed.length} Ingress(es) without a class`)

    const login = await h.app.request('/fleet/login', { method: 'POST', body: new URLSearchParams({ token: ADMIN }) })
    const cookie = /^(hapedge_fleet=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? ''
    const page = async (path: string) => (await h.app.request(path, { headers: { cookie } })).text()
    const shown = `${theirs.length} of other classes · ${unclassed.length} without a class`
    expect(await page('/fleet')).toContain(shown)
    const clusterPage = await page('/fleet/prod')
    expect(clusterPage).toContain(shown)
    expect(clusterPage).not.toContain('Every object is served.')

    // Once this cluster's class is the default, the Ingresses without a class are its own.
    const defaulted = await json(await h.events('prod', token, [put(ingressClass('hapedge', true))]))
    expect(defaulted.ignored).toEqual({ otherClass: theirs.length, noDefaultClass: 0 })
  })
})
