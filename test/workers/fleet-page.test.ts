import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const ORIGIN = 'https://hapedge.example'

describe('the fleet page in the Workers runtime', () => {
  it('renders its JSX, signs a Secure session with WebCrypto, and shows a registered cluster', async () => {
    const id = `page-${Date.now().toString(36)}`
    const registered = await SELF.fetch(`${ORIGIN}/v1/clusters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    })
    expect(registered.status).toBe(201)
    const login = await SELF.fetch(`${ORIGIN}/fleet/login`, { method: 'POST', body: new URLSearchParams({ token: env.ADMIN_TOKEN }), redirect: 'manual' })
    expect(login.status).toBe(303)
    const setCookie = login.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/HttpOnly; Secure; SameSite=Strict/)
    const fleet = await SELF.fetch(`${ORIGIN}/fleet`, { headers: { cookie: setCookie.split(';')[0]! }, redirect: 'manual' })
    expect(fleet.status).toBe(200)
    const body = await fleet.text()
    expect(body.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true)
    expect(body).toContain(`data-cluster="${id}"`)
  })
})
