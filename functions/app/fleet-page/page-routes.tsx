/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { html } from 'hono/html'
import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { NotPinned } from '../../../core/commit/errors.ts'
import { UnknownGeneration } from '../../../core/reading/errors.ts'
import { diffQuery, rollbackRequest } from '../../../core/fleet/fleet-requests.ts'
import { generationDiff } from '../../../core/fleet/generation-diff.ts'
import { generationHistory } from '../../../core/fleet/generation-history.ts'
import type { AppEnv } from '../app-env.ts'
import { isAdmin } from '../http/auth.ts'
import { backgroundTurn } from '../http/background-turn.ts'
import { fleetViews } from '../services/fleet-views.ts'
import { HttpError } from '../http/http-error.ts'
import { liveCluster, pinActions } from '../services/pin-actions.ts'
import { readQuery } from '../http/read-body.ts'
import { ClusterPage } from './cluster-page.tsx'
import { FleetTable } from './fleet-table.tsx'
import { ErrorPage, Layout, LoginPage } from './layout.tsx'
import { revokedSessions } from './revoked-sessions.ts'
import { carriesCsrf, SESSION_SECONDS, sessions, type Session } from './session.ts'

const COOKIE = 'hapedge_fleet'
/** Forms carry a token, a generation number and a CSRF token: a few hundred bytes. */
const FORM_BYTES = 4 * 1024
/** Generations listed on a cluster's page: as many as garbage collection keeps by default. */
const HISTORY = 50

const clusterQuery = diffQuery.partial().extend({ moved: diffQuery.shape.from.optional(), refresh: diffQuery.shape.from.optional() })
const fleetQuery = clusterQuery.pick({ refresh: true })

type PageEnv = { Variables: { session: Session } }

/**
 * The fleet as a web page, for the admin: server-rendered HTML (hono's JSX escapes every value,
 * and cluster data is the clusters' to choose), plain forms, no script. The admin token is
 * exchanged once for a signed session cookie; each form carries the session's CSRF token, and
 * each action answers with a redirect to a page (Post/Redirect/Get).
 */
export function fleetPage(env: AppEnv) {
  const page = new Hono<PageEnv>()
  const views = fleetViews(env)
  const actions = pinActions(env)
  const signer = sessions(env.adminTokenSha256, revokedSessions(env.store))
  const render = (c: Context, status: ContentfulStatusCode, node: Child) => c.html(html`<!DOCTYPE html>${node}`, status)

  page.use('*', async (c, next) => {
    await next()
    c.header('cache-control', 'no-store')
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    c.header('referrer-policy', 'same-origin')
    c.header('x-content-type-options', 'nosniff')
  })
  page.use(
    '*',
    bodyLimit({ maxSize: FORM_BYTES, onError: (c) => render(c, 413, <ErrorPage status={413} message="That form is larger than any of this page's forms." />) }),
  )

  page.get('/login', (c) => render(c, 200, <LoginPage />))
  page.post('/login', async (c) => {
    const { token } = await c.req.parseBody()
    if (typeof token !== 'string' || !isAdmin(env, token.trim())) return render(c, 401, <LoginPage failed />)
    const { cookie } = await signer.issue(env.clock.now())
    setCookie(c, COOKIE, cookie, { path: '/fleet', httpOnly: true, secure: !plainLoopback(c.req.url), sameSite: 'Strict', maxAge: SESSION_SECONDS })
    return c.redirect('/fleet', 303)
  })

  // Everything below needs a session; a form also needs the session's CSRF token (SameSite=Strict already keeps the cookie from other sites).
  page.use('*', async (c, next) => {
    const session = await signer.open(getCookie(c, COOKIE), env.clock.now())
    if (!session) return c.req.method === 'GET' ? c.redirect('/fleet/login', 303) : render(c, 401, <ErrorPage status={401} message="Sign in first." />)
    if (c.req.method === 'POST' && !carriesCsrf(session, (await c.req.parseBody()).csrf)) {
      return render(c, 403, <ErrorPage status={403} message="This form did not come from this page: reload the page and try again." csrf={session.csrf} />)
    }
    c.set('session', session)
    await next()
  })

  page.post('/logout', async (c) => {
    await signer.end(getCookie(c, COOKIE), env.clock.now())
    deleteCookie(c, COOKIE, { path: '/fleet', secure: !plainLoopback(c.req.url) })
    return c.redirect('/fleet/login', 303)
  })

  page.get('/', backgroundTurn, async (c) => {
    const { refresh } = readQuery(c.req.query(), fleetQuery)
    const clusters = await views.all()
    const { csrf } = c.get('session')
    const refreshSeconds = refresh === undefined ? undefined : Math.min(Math.max(refresh, 5), 300)
    return render(
      c,
      200,
      <Layout title="Fleet" csrf={csrf} {...(refreshSeconds ? { refreshSeconds } : {})}>
        <h1>Fleet</h1>
        <FleetTable clusters={clusters} now={env.clock.now()} />
        <footer>
          {`${clusters.length} clusters, rendered ${env.clock.now().toISOString()}. `}
          {refreshSeconds ? <a href="/fleet">Stop refreshing</a> : <a href="/fleet?refresh=10">Refresh every 10 s</a>}
        </footer>
      </Layout>,
    )
  })

  page.get('/:id', backgroundTurn, async (c) => {
    const record = await env.registry.get(c.req.param('id'))
    if (!record) throw new HttpError(404, `There is no cluster ${c.req.param('id')}.`)
    const query = readQuery(c.req.query(), clusterQuery)
    const [cluster, { generations }] = await Promise.all([
      views.one(record),
      generationHistory(env.store, record.id, env.caches.for(record.id), { limit: HISTORY }),
    ])
    const to = query.to ?? cluster.generation
    const from = query.from ?? generations.find((summary) => to !== null && summary.generation < to)?.generation
    const comparison = from !== undefined && to !== null ? await generationDiff(env.store, record.id, env.caches.for(record.id), from, to) : undefined
    const { csrf } = c.get('session')
    return render(
      c,
      200,
      <Layout title={record.id} csrf={csrf}>
        <ClusterPage
          cluster={cluster}
          generations={generations}
          csrf={csrf}
          now={env.clock.now()}
          {...(comparison ? { comparison } : {})}
          {...(query.moved ? { moved: query.moved } : {})}
        />
      </Layout>,
    )
  })

  const movedTo = (c: Context, id: string, generation: number) => c.redirect(`/fleet/${encodeURIComponent(id)}?moved=${generation}`, 303)

  page.post('/:id/rollback', async (c) => {
    const record = await liveCluster(env, c.req.param('id'))
    const { generation } = readQuery({ generation: String((await c.req.parseBody()).generation ?? '') }, rollbackRequest)
    return movedTo(c, record.id, (await actions.rollback(c, record, generation)).head.generation)
  })

  page.post('/:id/release', async (c) => {
    const record = await liveCluster(env, c.req.param('id'))
    return movedTo(c, record.id, (await actions.release(c, record)).head.generation)
  })

  // What a person can act on is shown as a page; anything else (storage down, say) goes on to the app's JSON errors.
  page.onError((error, c) => {
    const refusal =
      error instanceof HttpError
        ? error
        : error instanceof UnknownGeneration
          ? new HttpError(404, error.message)
          : error instanceof NotPinned
            ? new HttpError(409, error.message)
            : undefined
    if (!refusal || refusal.status >= 500) throw error
    return render(c, refusal.status, <ErrorPage status={refusal.status} message={refusal.message} {...csrfOf(c)} />)
  })
  return page
}

/** A session cookie must be `Secure`, except on plain HTTP to this machine, where a browser would refuse to keep it. */
function plainLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === 'http:' && (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]')
}

function csrfOf(c: Context<PageEnv>): { csrf?: string } {
  const session = c.get('session') as Session | undefined
  return session ? { csrf: session.csrf } : {}
}
