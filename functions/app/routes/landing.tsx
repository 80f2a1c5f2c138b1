/** @jsxImportSource hono/jsx */
import { Hono } from 'hono'
import { html } from 'hono/html'
import { Layout } from '../fleet-page/layout.tsx'

/** Where a person or a client starting at `/` goes next. */
export const LANDING_LINKS = {
  fleet: { href: '/fleet', title: 'the fleet page (sign in with the admin token)' },
  clusters: { href: '/v1/clusters', title: 'the HTTP API: registered clusters (admin token)' },
  healthz: { href: '/healthz', title: 'liveness' },
  metrics: { href: '/metrics', title: 'Prometheus metrics' },
} as const

/** `GET /`: links to the fleet page, the API, liveness and metrics; HTML for a browser, JSON for anything else. */
export function landingRoutes() {
  const landing = new Hono()
  landing.get('/', (c) => {
    if (!c.req.header('accept')?.includes('text/html')) return c.json({ service: 'hapedge', links: LANDING_LINKS })
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    return c.html(
      html`<!DOCTYPE html>${(
        <Layout title="hapedge">
          <h1>hapedge</h1>
          <ul>
            {Object.values(LANDING_LINKS).map((link) => (
              <li>
                <a href={link.href}>{link.href}</a> {link.title}
              </li>
            ))}
          </ul>
        </Layout>
      )}`,
    )
  })
  return landing
}
