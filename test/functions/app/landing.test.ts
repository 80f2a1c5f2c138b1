import { describe, expect, it } from 'vitest'
import { harness } from './app-harness.ts'

describe('GET /', () => {
  it('answers a client with links to the fleet page, the API, liveness and metrics', async () => {
    const { call } = harness()
    const response = await call('GET', '/')
    expect(response.status).toBe(200)
    const body = (await response.json()) as { links: Record<string, { href: string }> }
    expect(Object.values(body.links).map((link) => link.href)).toEqual(['/fleet', '/v1/clusters', '/healthz', '/metrics'])
  })

  it('answers a browser with a page whose links lead where they say', async () => {
    const { call } = harness()
    const page = await call('GET', '/', undefined, undefined, { accept: 'text/html,application/xhtml+xml' })
    expect(page.headers.get('content-type')).toContain('text/html')
    const hrefs = [...(await page.text()).matchAll(/href="([^"]+)"/g)].map((match) => match[1]!)
    expect(hrefs).toContain('/fleet')
    expect(hrefs).toContain('/healthz')
    for (const href of new Set(hrefs)) expect((await call('GET', href)).status, href).not.toBe(404)
  })
})
