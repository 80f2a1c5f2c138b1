import { beforeAll, describe, expect, it } from 'vitest'
import { app as appObjects } from '../../support/contracts/cluster-apps.ts'
import { ADMIN, harness } from './app-harness.ts'

/**
 * Every route × every kind of credential an outsider can present, each route in a fresh app. The
 * routes come from the table below, and the table must cover every route the app registers, so a
 * new route without a row fails.
 */

const put = (object: unknown) => ({ type: 'MODIFIED', object })

/**
 * Who may call a route: the admin token; a cluster's token (or the admin's); anyone; anyone
 * without credentials or the admin (`/metrics`: any other credential is 401); the fleet page,
 * which takes a session cookie and ignores bearer tokens.
 */
type Access = 'admin' | 'cluster' | 'open' | 'anonymous or admin' | 'page'

interface Row {
  /** As hono registers it: method, then the path with its `:params`. */
  route: string
  access: Access
  body?: unknown
  query?: string
  /** What a caller the route lets in gets (for `page`: what every caller gets, having no session). */
  allowed: number
}

const rows: Row[] = [
  { route: 'GET /', access: 'open', allowed: 200 },
  { route: 'GET /healthz', access: 'open', allowed: 200 },
  { route: 'GET /metrics', access: 'anonymous or admin', allowed: 200 },

  { route: 'POST /v1/clusters', access: 'admin', body: { id: 'newcomer' }, allowed: 201 },
  { route: 'GET /v1/clusters', access: 'admin', allowed: 200 },
  { route: 'GET /v1/clusters/:id', access: 'admin', allowed: 200 },
  { route: 'PATCH /v1/clusters/:id', access: 'admin', body: { httpBind: '127.0.0.1:8080' }, allowed: 200 },
  { route: 'POST /v1/clusters/:id/token', access: 'admin', body: { overlapSeconds: 0 }, allowed: 200 },
  { route: 'DELETE /v1/clusters/:id', access: 'admin', body: {}, allowed: 200 },
  { route: 'GET /v1/fleet', access: 'admin', allowed: 200 },
  { route: 'GET /v1/fleet/:id', access: 'admin', allowed: 200 },
  { route: 'GET /v1/clusters/:id/generations', access: 'admin', allowed: 200 },
  { route: 'GET /v1/clusters/:id/diff', access: 'admin', query: '?from=1', allowed: 200 },
  { route: 'POST /v1/clusters/:id/rollback', access: 'admin', body: { generation: 1 }, allowed: 200 },
  // Not pinned: refused for what it asks, not for who asks.
  { route: 'POST /v1/clusters/:id/release', access: 'admin', body: {}, allowed: 409 },

  { route: 'POST /v1/clusters/:id/events', access: 'cluster', body: { events: appObjects(3).map(put) }, allowed: 200 },
  { route: 'POST /v1/clusters/:id/audit', access: 'cluster', body: { apiVersion: 'audit.k8s.io/v1', kind: 'EventList', items: [] }, allowed: 200 },
  { route: 'PUT /v1/clusters/:id/objects', access: 'cluster', body: { apiVersion: 'v1', kind: 'List', items: appObjects(1) }, allowed: 200 },
  { route: 'POST /v1/clusters/:id/resync', access: 'cluster', allowed: 201 },
  // A page sent again replaces itself, and a finished session answers its finish again.
  {
    route: 'PUT /v1/clusters/:id/resync/:session/pages/:page',
    access: 'cluster',
    body: { apiVersion: 'v1', kind: 'List', items: appObjects(1) },
    allowed: 200,
  },
  { route: 'POST /v1/clusters/:id/resync/:session/finish', access: 'cluster', body: { pages: 1 }, allowed: 200 },
  // Not the world's session: abandoning it once would leave nothing for the next credential.
  { route: 'DELETE /v1/clusters/:id/resync/:session', access: 'cluster', allowed: 404 },
  { route: 'GET /v1/clusters/:id/head', access: 'cluster', allowed: 200 },
  { route: 'GET /v1/clusters/:id/status', access: 'cluster', allowed: 200 },
  { route: 'GET /v1/clusters/:id/gateway-status', access: 'cluster', allowed: 200 },
  { route: 'GET /v1/clusters/:id/routes', access: 'cluster', allowed: 200 },
  {
    route: 'POST /v1/clusters/:id/agents/:pod',
    access: 'cluster',
    body: { generation: 2, manifest: null, applied: null, appliedAt: null, lastError: null },
    allowed: 200,
  },
  { route: 'GET /v1/clusters/:id/agents', access: 'cluster', allowed: 200 },
  { route: 'GET /v1/clusters/:id/manifests/:sha256', access: 'cluster', allowed: 200 },
  { route: 'GET /v1/clusters/:id/blobs/:sha256', access: 'cluster', allowed: 200 },

  { route: 'GET /fleet/login', access: 'page', allowed: 200 },
  // The form's token field is what signs in; a bearer header is no token.
  { route: 'POST /fleet/login', access: 'page', allowed: 401 },
  { route: 'POST /fleet/logout', access: 'page', allowed: 401 },
  { route: 'GET /fleet', access: 'page', allowed: 303 },
  { route: 'GET /fleet/:id', access: 'page', allowed: 303 },
  { route: 'POST /fleet/:id/rollback', access: 'page', allowed: 401 },
  { route: 'POST /fleet/:id/release', access: 'page', allowed: 401 },
]

/**
 * A cluster `mine` with two generations and a rotated token, a cluster `theirs`, and a cluster
 * `gone` that was removed: everything a credential below can be.
 */
async function world() {
  const h = harness()
  const firstToken = await h.register('mine')
  const theirs = await h.register('theirs')
  const gone = await h.register('gone')
  expect((await h.call('DELETE', '/v1/clusters/gone', ADMIN, {})).status).toBe(200)
  const rotated = await h.call('POST', '/v1/clusters/mine/token', ADMIN, { overlapSeconds: 0 })
  const { token: mine } = (await rotated.json()) as { token: string }
  await h.events('mine', mine, appObjects(1).map(put))
  const { manifest } = (await (await h.events('mine', mine, appObjects(2).map(put))).json()) as { manifest: string }
  const { blobs } = (await (await h.call('GET', `/v1/clusters/mine/head?have=${'0'.repeat(64)}`, mine)).json()) as { blobs: Record<string, string> }
  const blob = Object.keys(blobs).find((sha256) => sha256 !== manifest)!
  const credentials: Record<Credential, string | undefined> = {
    none: undefined,
    // The admin token itself, in a header that is not `Bearer <token>`.
    'malformed header': `Bearer ${ADMIN} ${ADMIN}`,
    'wrong scheme (Basic)': `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`,
    'admin token': `Bearer ${ADMIN}`,
    "another cluster's token": `Bearer ${theirs}`,
    "this cluster's token": `Bearer ${mine}`,
    'a rotated-out token': `Bearer ${firstToken}`,
    "a removed cluster's token": `Bearer ${gone}`,
    'the right prefix, a wrong secret': `Bearer hpe.mine.${'A'.repeat(43)}`,
  }
  // A resync session of `mine` with its one page stored, so that pages and finish meet a live session.
  const { session } = (await (await h.call('POST', '/v1/clusters/mine/resync', mine)).json()) as { session: string }
  const page = await h.call('PUT', `/v1/clusters/mine/resync/${session}/pages/0`, mine, { apiVersion: 'v1', kind: 'List', items: appObjects(1) })
  expect(page.status).toBe(200)
  const params: Record<string, string> = { id: 'mine', pod: 'haproxy-0', sha256: blob, session, page: '0' }
  // A manifest is asked for by the generation's manifest sha256; a blob by one of the files' blobs.
  const pathOf = (route: string) =>
    route
      .split(' ')[1]!
      .replace(/\/manifests\/:sha256$/, `/manifests/${manifest}`)
      .replace(/^(\/v1\/clusters\/:id\/resync\/):session$/, `$1${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)
      .replace(/:(\w+)/g, (_, name: string) => params[name]!)
  return { ...h, credentials, pathOf }
}

/** Refusals first and the admin last: a row's cells share one world, and only the credentials let in can change it. */
const credentialNames = [
  'none',
  'malformed header',
  'wrong scheme (Basic)',
  "another cluster's token",
  'a rotated-out token',
  "a removed cluster's token",
  'the right prefix, a wrong secret',
  "this cluster's token",
  'admin token',
] as const
type Credential = (typeof credentialNames)[number]

/** What a credential gets on a route: its `allowed` status, or the refusal. */
function expected(row: Row, credential: Credential): number {
  if (row.access === 'open' || row.access === 'page') return row.allowed
  if (credential === 'admin token') return row.allowed
  if (row.access === 'anonymous or admin') return credential === 'none' ? row.allowed : 401
  if (row.access === 'admin') return 401
  if (credential === "this cluster's token") return row.allowed
  return credential === "another cluster's token" ? 403 : 401
}

describe('every route against every credential', () => {
  it('has a row for every route the app registers, and none for a route it does not', () => {
    const { app } = harness()
    const registered = new Set(app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`))
    expect(new Set(rows.map((row) => row.route))).toEqual(registered)
  })

  describe.each(rows)('$route', (row) => {
    let served: Awaited<ReturnType<typeof world>>
    beforeAll(async () => {
      served = await world()
    })

    it.for(credentialNames.map((credential) => ({ credential, status: expected(row, credential) })))(
      'with $credential: $status',
      async ({ credential, status }) => {
        const { app, credentials, pathOf } = served
        const authorization = credentials[credential]
        const { body, query = '' } = row
        const response = await app.request(pathOf(row.route) + query, {
          method: row.route.split(' ')[0]!,
          headers: { ...(authorization ? { authorization } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        expect(response.status, await response.text()).toBe(status)
      },
    )
  })
})
