import { describe, expect, it } from 'vitest'
import { writeAnswer } from '../../../core/api/write-answer.ts'
import { ANSWER_WARNINGS } from '../../../core/ingest/write-warnings.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { authSecret, ingress } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const json = async (response: Response) => (await response.json()) as Record<string, any>

/** app-1's host, with annotations hapedge reads but does not honour, and one key under its own prefix that it does not know. */
const annotated = ingress({
  name: 'annotated',
  annotations: {
    'nginx.ingress.kubernetes.io/proxy-buffering': 'on',
    'hapedge.io/rewrite': '/',
    'cert-manager.io/cluster-issuer': 'letsencrypt',
  },
  rules: [{ host: 'annotated.example.com', paths: [{ service: 'app-1' }] }],
})
const annotatedWarnings = [
  { object: 'Ingress default/annotated', annotation: 'hapedge.io/rewrite', reason: 'not a hapedge annotation' },
  { object: 'Ingress default/annotated', annotation: 'nginx.ingress.kubernetes.io/proxy-buffering', reason: 'not supported by hapedge' },
]
/** External authentication, which hapedge does not render: refused, never served open. */
const guarded = ingress({
  name: 'guarded',
  annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
  rules: [{ host: 'guarded.example.com', paths: [{ service: 'app-1' }] }],
})

describe('annotations hapedge does not honour', () => {
  it('are warnings in the write answer, the status, the fleet API and its page; refused access control is a rejection', async () => {
    const h = harness()
    const token = await h.register('prod')
    const answer = await json(await h.events('prod', token, [...app(1), annotated, guarded].map(put)))
    expect(answer).toMatchObject({ committed: true, warnings: annotatedWarnings, warningCount: annotatedWarnings.length })
    expect(answer.rejected).toEqual([
      {
        object: 'Ingress default/guarded',
        reason: expect.stringMatching(/^metadata\.annotations\["nginx\.ingress\.kubernetes\.io\/enable-modsecurity"\]: .*its routes answer 503$/),
      },
    ])
    expect(JSON.stringify(answer.warnings)).not.toContain('cert-manager.io')

    // A write that names only another object answers none of them.
    const other = await json(await h.events('prod', token, [put(app(2)[0])]))
    expect(other).toMatchObject({ warnings: [], warningCount: 0, rejected: [] })

    const status = await json(await h.call('GET', '/v1/clusters/prod/status', token))
    expect(status).toMatchObject({ warnings: annotatedWarnings, warningCount: annotatedWarnings.length, rejectedCount: 1 })

    const fleet = await json(await h.call('GET', '/v1/fleet', ADMIN))
    expect(fleet.clusters[0].counts).toMatchObject({ rejected: 1, warnings: annotatedWarnings.length })
    expect(fleet.clusters[0].warnings).toBeUndefined()
    const detail = await json(await h.call('GET', '/v1/fleet/prod', ADMIN))
    expect(detail.warnings).toEqual(annotatedWarnings)

    const login = await h.app.request('/fleet/login', { method: 'POST', body: new URLSearchParams({ token: ADMIN }) })
    const cookie = /^(hapedge_fleet=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? ''
    const page = await (await h.app.request('/fleet/prod', { headers: { cookie } })).text()
    expect(page).toContain('Annotations not honoured')
    for (const warning of annotatedWarnings) expect(page).toContain(warning.annotation)
  })

  it('never puts a password hash into the write answer, the status or the fleet: a user left out is named, not its hash', async () => {
    const h = harness()
    const token = await h.register('prod')
    const [bcrypt, apr1] = ['$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a', '$apr1$salt$X4t4GieilutI/LKL4ggXg1']
    const admin = ingress({
      name: 'admin',
      annotations: { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users' },
      rules: [{ host: 'admin.example.com', paths: [{ service: 'app-1' }] }],
    })
    const answer = await json(await h.events('prod', token, [...app(1), admin, authSecret('users', { auth: `alice:${bcrypt}\nbob:${apr1}\n` })].map(put)))
    expect(answer).toMatchObject({ committed: true, rejected: [], warnings: [{ object: 'Ingress default/admin', reason: expect.stringContaining('"bob"') }] })
    const before = await json(await h.call('GET', '/v1/clusters/prod/status', token))
    const gone = await json(await h.events('prod', token, [{ type: 'DELETED', object: authSecret('users', {}) }]))
    const status = await json(await h.call('GET', '/v1/clusters/prod/status', token))
    expect(JSON.stringify(status)).toContain('Secret default/users does not exist')
    const told = JSON.stringify([answer, before, gone, status, await json(await h.call('GET', '/v1/fleet/prod', ADMIN))])
    for (const hash of [bcrypt, apr1]) expect(told).not.toContain(hash)
  })

  it('answers the warnings of every object a PUT of the whole list names, sent or unchanged', async () => {
    const h = harness()
    const token = await h.register('prod')
    const list = { apiVersion: 'v1', kind: 'List', metadata: {}, items: [...app(1), annotated] }
    await h.call('PUT', '/v1/clusters/prod/objects', token, list)
    const again = await json(await h.call('PUT', '/v1/clusters/prod/objects', token, list))
    expect(again).toMatchObject({ committed: false, warnings: annotatedWarnings, warningCount: annotatedWarnings.length })
  })

  it("answers the whole cluster's warnings at the end of a paged resync, as its rejections, even when nothing changed", async () => {
    const h = harness()
    const token = await h.register('prod')
    const base = '/v1/clusters/prod/resync'
    const items = [...app(1), annotated, guarded]
    const resync = async () => {
      const { session } = await json(await h.call('POST', base, token))
      expect((await h.call('PUT', `${base}/${session}/pages/0`, token, { apiVersion: 'v1', kind: 'List', metadata: {}, items })).status).toBe(200)
      let finished: Response
      while ((finished = await h.call('POST', `${base}/${session}/finish`, token, { pages: 1 })).status === 202);
      return json(finished)
    }
    await resync()
    const unchanged = await resync()
    expect(unchanged).toMatchObject({ done: true, committed: false, warnings: annotatedWarnings, warningCount: annotatedWarnings.length })
    expect(unchanged.rejected.map((rejection: { object: string }) => rejection.object)).toEqual(['Ingress default/guarded'])
  })

  it('lists the first ones in an answer and counts them all, so an answer stays small at any cluster size', async () => {
    const h = harness()
    const token = await h.register('prod')
    const many = Array.from({ length: ANSWER_WARNINGS + 20 }, (_, i) =>
      ingress({
        name: `buffered-${String(i).padStart(3, '0')}`,
        annotations: { 'nginx.ingress.kubernetes.io/proxy-buffering': 'on' },
        rules: [{ host: `buffered-${i}.example.com`, paths: [{ service: 'app-1' }] }],
      }),
    )
    const answer = await json(await h.events('prod', token, [...app(1), ...many].map(put)))
    expect(answer.warningCount).toBe(many.length)
    expect(answer.warnings).toHaveLength(ANSWER_WARNINGS)
    expect(answer.warnings[0]).toEqual({
      object: 'Ingress default/buffered-000',
      annotation: 'nginx.ingress.kubernetes.io/proxy-buffering',
      reason: 'not supported by hapedge',
    })
  })

  it('parses an answer from a version before warnings (older servers) as none', () => {
    const older = {
      generation: 1,
      manifest: 'a'.repeat(64),
      committed: true,
      changed: { files: 1, bytes: 1 },
      reload: false,
      reasons: [],
      rejected: [],
      ignored: null,
      stale: 0,
    }
    expect(writeAnswer.parse(older)).toMatchObject({ warnings: [], warningCount: 0 })
  })
})
