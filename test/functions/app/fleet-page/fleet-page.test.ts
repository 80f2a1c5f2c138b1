import { describe, expect, it } from 'vitest'
import { sha256Text } from '../../../../core/hash.ts'
import { revokedSessions } from '../../../../functions/app/fleet-page/revoked-sessions.ts'
import { sessions } from '../../../../functions/app/fleet-page/session.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { app } from '../../../support/contracts/cluster-apps.ts'
import { ingress } from '../../../support/objects.ts'
import { ADMIN, harness } from '../app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const SCRIPT = '<script>alert(1)</script>'

/** The app with a signed-in browser: its cookie and the CSRF token its pages carry. */
async function signedIn() {
  const h = harness()
  const login = await h.app.request('/fleet/login', { method: 'POST', body: new URLSearchParams({ token: ADMIN }) })
  const cookie = /^(hapedge_fleet=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? ''
  const page = (path: string, init: RequestInit = {}) => h.app.request(path, { ...init, headers: { cookie, ...init.headers } })
  const csrf = /name="csrf" value="([^"]+)"/.exec(await (await page('/fleet')).text())?.[1] ?? ''
  const post = (path: string, form: Record<string, string>) => page(path, { method: 'POST', body: new URLSearchParams(form) })
  return { ...h, login, cookie, page, csrf, post }
}

describe('the fleet page', () => {
  it('exchanges the admin token for a signed session cookie that is not the token, and sends a browser without one to sign in', async () => {
    const { login, cookie, page, app: served } = await signedIn()
    expect(login.status).toBe(303)
    expect(login.headers.get('location')).toBe('/fleet')
    const setCookie = login.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Strict/)
    expect(setCookie).toMatch(/Path=\/fleet/)
    // http://localhost is where the harness calls: a Secure cookie would be dropped there; anywhere else it is Secure.
    expect(setCookie).not.toMatch(/Secure/)
    expect(setCookie).not.toContain(ADMIN)
    expect((await page('/fleet')).status).toBe(200)

    const remote = await served.request('https://fleet.example.com/fleet/login', { method: 'POST', body: new URLSearchParams({ token: ADMIN }) })
    expect(remote.headers.get('set-cookie')).toMatch(/Secure/)

    const anonymous = await served.request('/fleet')
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get('location')).toBe('/fleet/login')
    expect((await served.request('/fleet/prod', { headers: { cookie: `${cookie.slice(0, -2)}AA` } })).headers.get('location')).toBe('/fleet/login')
    const wrong = await served.request('/fleet/login', { method: 'POST', body: new URLSearchParams({ token: 'not-the-admin-token' }) })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('set-cookie')).toBeNull()
    expect(await wrong.text()).toContain('That is not the admin token')
  })

  it('signs sessions under the admin token: another token, or an expired session, is refused', async () => {
    const now = new Date('2026-12-03T00:00:00Z')
    const mine = sessions(sha256Text(ADMIN), revokedSessions(createMemoryStore()))
    const { cookie, session } = await mine.issue(now)
    expect(await mine.open(cookie, now)).toEqual(session)
    expect(await sessions(sha256Text('a rotated admin token'), revokedSessions(createMemoryStore())).open(cookie, now)).toBeUndefined()
    expect(await mine.open(cookie, new Date(session.expires.getTime() + 1))).toBeUndefined()
    expect(
      await mine.open(
        cookie.replace(/^\d+/, (at) => String(Number(at) + 3600)),
        now,
      ),
    ).toBeUndefined()
    expect((await mine.issue(now)).session.csrf).not.toBe(session.csrf)
  })

  it('ends the session on sign-out: the cookie is refused from then on, by every instance on the same store, and the other sessions go on', async () => {
    const { cookie, page, csrf, store, app: served } = await signedIn()
    const other = await served.request('/fleet/login', { method: 'POST', body: new URLSearchParams({ token: ADMIN }) })
    const otherCookie = /^(hapedge_fleet=[^;]+)/.exec(other.headers.get('set-cookie') ?? '')?.[1] ?? ''
    const signOut = await page('/fleet/logout', { method: 'POST', body: new URLSearchParams({ csrf }) })
    expect(signOut.status).toBe(303)
    expect(signOut.headers.get('location')).toBe('/fleet/login')

    // A copy of the cookie kept after sign-out, here and in another instance of the app on the same bucket (a stateless function).
    for (const instance of [served, harness({ store }).app]) {
      const replayed = await instance.request('/fleet', { headers: { cookie } })
      expect(replayed.status).toBe(303)
      expect(replayed.headers.get('location')).toBe('/fleet/login')
      expect((await instance.request('/fleet', { headers: { cookie: otherCookie } })).status).toBe(200)
    }
  })

  it('forgets a sign-out once its session would have expired anyway', async () => {
    const now = new Date('2026-12-03T00:00:00Z')
    const store = createMemoryStore()
    const signer = sessions(sha256Text(ADMIN), revokedSessions(store))
    const kept = async () => {
      const keys: string[] = []
      for await (const { key } of store.list('')) keys.push(key)
      return keys
    }
    const expiry = (cookie: string) => cookie.split('.')[0]
    const first = await signer.issue(now)
    await signer.end(first.cookie, now)
    expect((await kept()).map((key) => key.split('/').pop()!.split('.')[0])).toEqual([expiry(first.cookie)])
    const later = new Date(first.session.expires.getTime() + 1000)
    const second = await signer.issue(later)
    await signer.end(second.cookie, later)
    expect((await kept()).map((key) => key.split('/').pop()!.split('.')[0])).toEqual([expiry(second.cookie)])
  })

  it('shows what clusters send as text, never as markup', async () => {
    const { register, events, call, page } = await signedIn()
    const token = await register('prod')
    expect(await (await page('/fleet/prod')).text()).toContain('A difference needs two retained generations.')
    expect((await page('/fleet/prod?from=one')).status).toBe(400)
    const hostile = ingress({ name: 'hostile', rules: [{ host: `${SCRIPT}.example.com`, paths: [{ path: '/', service: 'app-1' }] }] })
    await events('prod', token, [...app(1), hostile].map(put))
    await call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { generation: 1, manifest: null, applied: 'runtime', appliedAt: null, lastError: SCRIPT })
    const body = await (await page('/fleet/prod')).text()
    expect(body).toContain('Ingress default/hostile')
    expect(body).not.toContain('<script')
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('refuses a form without the session’s CSRF token, and rolls back and releases with one (Post/Redirect/Get)', async () => {
    const { register, events, post, page, csrf } = await signedIn()
    const token = await register('prod')
    await events('prod', token, app(1).map(put))
    await events('prod', token, app(2).map(put))
    expect((await post('/fleet/prod/rollback', { generation: '1' })).status).toBe(403)
    expect((await post('/fleet/prod/rollback', { generation: '1', csrf: 'forged' })).status).toBe(403)
    const rolled = await post('/fleet/prod/rollback', { generation: '1', csrf })
    expect(rolled.status).toBe(303)
    expect(rolled.headers.get('location')).toBe('/fleet/prod?moved=3')
    expect(await (await page('/fleet/prod?moved=3')).text()).toContain('pinned to 1 · 0 held')
    const bad = await post('/fleet/prod/rollback', { generation: '40', csrf })
    expect(bad.status).toBe(404)
    expect(await bad.text()).toContain('<!DOCTYPE html>')
    expect((await post('/fleet/prod/release', { csrf })).headers.get('location')).toBe('/fleet/prod?moved=4')
    expect((await post('/fleet/prod/release', { csrf })).status).toBe(409)
  })
})
