import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { app } from '../support/contracts/cluster-apps.ts'
import { ingress, service } from '../support/objects.ts'
import { projectRoot } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { launchChromium } from './chromium.ts'

/** Where the suite leaves its screenshots, to be looked at (not committed: docs/screenshots/ holds the reference ones). */
const SHOTS = join(projectRoot, 'test/browser/screenshots')
const put = (object: unknown) => ({ type: 'MODIFIED', object })

describe('the fleet page in Chromium, on a real `hapedge serve`', () => {
  let tmp: string
  let served: Served
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const tokens: Record<string, string> = {}

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(served.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const json = (await response.json()) as Record<string, any>
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }
  const events = (cluster: string, list: { type: string; object: unknown }[]) =>
    call('POST', `/v1/clusters/${cluster}/events`, tokens[cluster]!, { events: list })
  const row = (cluster: string) => page.locator(`tr[data-cluster="${cluster}"]`)
  const cell = (cluster: string, field: string) => row(cluster).locator(`[data-field="${field}"]`)
  /** The whole page, no taller than what it shows. */
  const screenshot = async (name: string) => {
    await page.setViewportSize({ width: 1280, height: 320 })
    await page.screenshot({ path: join(SHOTS, name), fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
  }

  beforeAll(async () => {
    tmp = await makeTempDir('hapedge-browser')
    await mkdir(SHOTS, { recursive: true })
    ;[served, browser] = await Promise.all([startServe(['--data', join(tmp, 'data')]), launchChromium()])
    for (const id of ['prod', 'edge']) tokens[id] = ((await call('POST', '/v1/clusters', served.adminToken, { id })) as { token: string }).token
    await events('prod', [...app(1), ...app(2)].map(put)) // 1
    await events('prod', [put(app(2, ['/', '/v2'])[0])]) // 2: a route added
    await events('prod', app(3).map(put)) // 3: an app added
    const late = ingress({ name: 'late', createdAt: '2025-01-01T00:00:00Z', rules: [{ host: 'app-9.example.com', paths: [{ path: '/', service: 'other' }] }] })
    await events('edge', [...app(9), late, service('other')].map(put))
    await call('POST', '/v1/clusters/prod/agents/haproxy-0', tokens.prod!, {
      generation: 2,
      manifest: null,
      applied: 'runtime',
      appliedAt: null,
      lastError: null,
    })
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    page = await context.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    await removeTempDir(tmp)
  })

  it('sends a browser without a session to sign in, refuses a wrong token, and signs in with the admin token', async () => {
    await page.goto(`${served.url}/fleet`)
    expect(new URL(page.url()).pathname).toBe('/fleet/login')
    await page.getByLabel('Admin token').fill('not-the-admin-token')
    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ])
    expect(refused.status()).toBe(401)
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not the admin token')
    expect(await context.cookies()).toEqual([])

    await page.getByLabel('Admin token').fill(served.adminToken)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${served.url}/fleet`)
    const [cookie] = await context.cookies()
    expect(cookie).toMatchObject({ name: 'hapedge_fleet', path: '/fleet', httpOnly: true, sameSite: 'Strict' })
    expect(cookie!.value).not.toContain(served.adminToken)
  })

  it('shows the fleet: each cluster’s generation, rejected count, convergence and agents behind', async () => {
    await page.goto(`${served.url}/fleet`)
    await expect.poll(() => cell('prod', 'generation').innerText()).toBe('3')
    expect(await cell('prod', 'rejected').innerText()).toBe('0')
    expect(await cell('prod', 'converged').innerText()).toBe('no')
    expect(await cell('prod', 'behind').innerText()).toBe('1')
    expect(await cell('edge', 'generation').innerText()).toBe('1')
    expect(await cell('edge', 'rejected').innerText()).toBe('1')
    expect(await cell('edge', 'converged').innerText()).toBe('no agents')
    await screenshot('fleet.png')
  })

  it('opens a cluster: rejected Ingresses with their reasons; and compares two generations', async () => {
    await page.getByRole('link', { name: 'edge', exact: true }).click()
    await page.waitForURL(`${served.url}/fleet/edge`)
    const rejected = page.locator('table.rejected tbody tr')
    expect(await rejected.count()).toBe(1)
    expect(await rejected.locator('td').first().innerText()).toBe('Ingress default/late')
    expect(await rejected.locator('td').nth(1).innerText()).toContain('app-9.example.com')

    await page.goto(`${served.url}/fleet/prod`)
    // By default the previous generation against the current one: generation 3 added app-3.
    expect(await page.locator('table.routes tbody').innerText()).toContain('app-3.example.com')
    await page.getByLabel('Compare').selectOption('1')
    await page.getByLabel('with').selectOption('2')
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.waitForURL(/from=1&to=2/)
    const routes = page.locator('table.routes tbody tr')
    expect(await routes.count()).toBe(1)
    expect((await routes.locator('td').allInnerTexts()).slice(0, 4)).toEqual(['added', 'app-2.example.com', 'Prefix', '/v2'])
    expect(await page.locator('table.agents').innerText()).toContain('haproxy-0')
    await screenshot('cluster.png')
  })

  it('rolls back to generation 1 (pinned), holds the next event, and releases it as the next generation', async () => {
    await page.goto(`${served.url}/fleet/prod`)
    await page.getByRole('button', { name: 'Roll back to 1' }).click()
    await page.waitForURL(`${served.url}/fleet/prod?moved=4`)
    expect(await page.getByRole('status').innerText()).toBe('Now serving generation 4.')
    expect(await page.locator('h1 .badge.pin').innerText()).toBe('pinned to 1 · 0 held')
    expect(await page.locator('tr[data-generation="4"]').innerText()).toContain('rollback to 1')
    // What the rollback changed, shown by default: generation 3 against 4, app-2's /v2 and app-3 gone.
    expect(await page.locator('table.routes tbody').innerText()).toMatch(/removed\s+app-3\.example\.com/)

    const held = await events('prod', [{ type: 'DELETED', object: app(1)[0] }])
    expect(held).toMatchObject({ generation: 4, pinned: { generation: 1, held: 1 } })
    await page.reload()
    expect(await page.locator('[data-field="pin"]').innerText()).toContain('1 change held')
    await screenshot('cluster-pinned.png')
    await page.getByRole('button', { name: 'Release 1 held change' }).click()
    await page.waitForURL(`${served.url}/fleet/prod?moved=5`)
    expect(await page.locator('.badge.pin').count()).toBe(0)
    expect(await page.locator('tr[data-generation="5"]').innerText()).toContain('release')

    await page.goto(`${served.url}/fleet`)
    expect(await cell('prod', 'generation').innerText()).toBe('5')
    expect(await row('prod').innerText()).not.toContain('pinned')
  })

  it('refuses a form from another site, and a form without the session’s CSRF token', async () => {
    await call('POST', '/v1/clusters/prod/rollback', served.adminToken, { generation: 2 }) // 6, pinned: a release would change something
    // Another site's page posts a form to the fleet page: SameSite=Strict keeps the session cookie home.
    const attacker = await context.newPage()
    await attacker.route('http://attacker.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<form method="post" action="${served.url}/fleet/prod/release"></form><script>document.forms[0].submit()</script>`,
      }),
    )
    const [crossSite] = await Promise.all([attacker.waitForResponse(`${served.url}/fleet/prod/release`), attacker.goto('http://attacker.test/')])
    expect(crossSite.status()).toBe(401)
    await attacker.close()
    // With the cookie but without the form's token (what a same-site request forged without reading the page would send).
    const forged = await context.request.post(`${served.url}/fleet/prod/release`, { form: { csrf: 'guessed' }, maxRedirects: 0 })
    expect(forged.status()).toBe(403)
    expect(await call('GET', '/v1/fleet/prod', served.adminToken)).toMatchObject({ generation: 6, pinned: { generation: 2 } })
  })

  it('signs out: the cookie goes, and the fleet asks to sign in again', async () => {
    await page.goto(`${served.url}/fleet`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${served.url}/fleet/login`)
    expect(await context.cookies()).toEqual([])
    await page.goto(`${served.url}/fleet/prod`)
    expect(new URL(page.url()).pathname).toBe('/fleet/login')
  })
})
