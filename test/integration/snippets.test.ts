import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BACKEND_SNIPPET } from '../../core/kube/service.ts'
import { backendName } from '../../core/model/backend-ref.ts'
import { certificateFile, FILES } from '../../core/render/files.ts'
import { SET_TIMEOUT_RULES } from '../../core/render/render-timeouts.ts'
import { ALLOWED_SNIPPET_LINES } from '../support/allowed-snippet-lines.ts'
import { makeCertificate, type Certificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyCheck, startHaproxy } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service, tlsSecret } from '../support/objects.ts'
import { hapedge } from '../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { readTextTree } from './read-tree.ts'
import { answeredBy, renderToDir, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A Service's `hapedge.io/backend-config-snippet` through the real HAProxy: loaded and in
 * effect when allowed, refused when it would escape its backend, and each escape shown to be
 * real by rendering it raw.
 */

const HOST = 'snippets.test'
const ALLOWED = [
  'http-response set-header X-Snippet yes',
  '# set by the Service',
  'timeout server 30s',
  'option httpchk GET /healthz',
  'acl admin path_beg /web/admin',
  'http-request deny deny_status 403 if admin',
].join('\n')
const HOSTILE = 'timeout server 1s\nfrontend evil\n bind :9999'

/** Another namespace's TLS Secret, whose private key HAProxy holds under this file name. */
const OTHER_SECRET = { namespace: 'other', name: 'vault-tls' }
const OTHER_KEY_FILE = certificateFile(`${OTHER_SECRET.namespace}/${OTHER_SECRET.name}`)
const web = backendName({ namespace: 'default', service: 'web', port: 80 })
const mapper = backendName({ namespace: 'default', service: 'mapper', port: 80 })

/** The ways an allowed snippet reached beyond its backend (issue 16), each in a Service of its own, with the word refused. */
const ESCAPES = {
  // Points another tenant's route (web's) at this backend.
  mapper: { snippet: `http-request set-map(${FILES.exactMap}) ${HOST}/web ${mapper}`, word: 'set-map' },
  // Serves another namespace's private key.
  pem: { snippet: `http-request return status 200 content-type text/plain file ${OTHER_KEY_FILE}`, word: 'file' },
  // Sends HAProxy's environment to the client.
  env: { snippet: 'http-response set-header X-Env %[env(PATH)]', word: 'env' },
  // Shows every backend, and lets anyone disable their servers.
  stats: { snippet: 'stats enable\nstats uri /stats\nstats admin if TRUE', word: 'stats' },
} as const
type Escape = keyof typeof ESCAPES
const ESCAPE_NAMES = Object.keys(ESCAPES) as Escape[]

/** web's Service carries the allowed snippet, api's a hostile one, each escape's Service its escape. */
function cluster(services: ServiceBackends, certificate: Certificate) {
  const backend = (name: string, snippet: string) => {
    const { host, port } = services.backend(name)
    return [service(name, [{ port: 80 }], 'default', { [BACKEND_SNIPPET]: snippet }), endpointSlice(name, [{ address: host, ready: true }], [{ port }])]
  }
  return [
    ...backend('web', ALLOWED),
    ...backend('api', HOSTILE),
    ...ESCAPE_NAMES.flatMap((name) => backend(name, ESCAPES[name].snippet)),
    ingress({
      name: 'site',
      rules: [
        {
          host: HOST,
          paths: [
            { path: '/web', pathType: 'Prefix', service: 'web' },
            ...['api', ...ESCAPE_NAMES].map((name) => ({ path: `/${name}`, pathType: 'Exact' as const, service: name })),
          ],
        },
      ],
    }),
    tlsSecret(OTHER_SECRET.name, certificate.certPem, certificate.keyPem, OTHER_SECRET.namespace),
    ingress({
      name: 'vault',
      namespace: OTHER_SECRET.namespace,
      rules: [{ host: 'vault.test', paths: [{ service: 'vault' }] }],
      tls: [{ hosts: ['vault.test'], secretName: OTHER_SECRET.name }],
    }),
  ]
}

describe('configuration snippets in HAProxy', () => {
  let certificateDir: string
  let certificate: Certificate
  let services: ServiceBackends
  let allowed: ServedCluster
  let forbidden: ServedCluster

  beforeAll(async () => {
    certificateDir = await makeTempDir('hapedge-snippets-tls')
    certificate = await makeCertificate({ dir: certificateDir, hosts: ['vault.test'], name: 'vault' })
    services = await startServices(['web', 'api', ...ESCAPE_NAMES])
    allowed = await serveCluster(cluster(services, certificate), { snippets: 'allowed' })
    forbidden = await serveCluster(cluster(services, certificate))
  })

  afterAll(async () => {
    await allowed?.stop()
    await forbidden?.stop()
    await services?.close()
    if (certificateDir) await removeTempDir(certificateDir)
  })

  it('loads an allowed snippet into its Service’s backend, where it takes effect on that backend only', async () => {
    const page = await allowed.get(HOST, '/web')
    expect(answeredBy(page)).toBe('web')
    expect(page.headers['x-snippet']).toBe('yes')
    expect((await allowed.get(HOST, '/web/admin')).status).toBe(403)
    const api = await allowed.get(HOST, '/api')
    expect(answeredBy(api)).toBe('api')
    expect(api.headers['x-snippet']).toBeUndefined()
    expect(allowed.files.get(FILES.backends)).toContain('    http-request deny deny_status 403 if admin\n')
  })

  it('refuses a snippet that would open a frontend, naming the Service, and serves its backend without it', async () => {
    expect(allowed.model.rejections).toContainEqual({
      object: 'Service default/api',
      reason: expect.stringMatching(/^hapedge\.io\/backend-config-snippet line 2 opens a section \("frontend"\)/),
    })
    expect(allowed.files.get(FILES.backends)).not.toMatch(/evil|bind :9999|timeout server 1s/)
  })

  it('refuses each way a snippet reached beyond its backend, naming the Service and the word, and renders none of it', async () => {
    for (const name of ESCAPE_NAMES) {
      expect(allowed.model.rejections, name).toContainEqual({
        object: `Service default/${name}`,
        reason: expect.stringContaining(`${BACKEND_SNIPPET} line 1: "${ESCAPES[name].word}" is not allowed in a backend snippet`),
      })
    }
    const rendered = [...allowed.files.values()].join('')
    for (const name of ESCAPE_NAMES) for (const line of ESCAPES[name].snippet.split('\n')) expect(rendered).not.toContain(line)
    expect(rendered).not.toMatch(/set-map|file tls\/|env\(|stats (enable|uri|admin)/)
  })

  it('serves each of those backends without its snippet: routes stay put, no key, no environment, no statistics', async () => {
    expect(answeredBy(await allowed.get(HOST, '/mapper'))).toBe('mapper')
    expect(answeredBy(await allowed.get(HOST, '/web'))).toBe('web')
    const pem = await allowed.get(HOST, '/pem')
    expect(answeredBy(pem)).toBe('pem')
    expect(pem.body).not.toContain('PRIVATE KEY')
    const env = await allowed.get(HOST, '/env')
    expect(answeredBy(env)).toBe('env')
    expect(env.headers['x-env']).toBeUndefined()
    expect(answeredBy(await allowed.get(HOST, '/stats'))).toBe('stats')
  })

  it('renders no snippet while snippets are forbidden, reports every one, and serves every route', async () => {
    expect(forbidden.model.rejections.map((rejection) => rejection.object).sort()).toEqual(
      ['api', 'web', ...ESCAPE_NAMES].map((name) => `Service default/${name}`).sort(),
    )
    expect(forbidden.model.rejections.find((rejection) => rejection.object === 'Service default/web')!.reason).toMatch(
      /^snippets are not allowed on this cluster/,
    )
    const page = await forbidden.get(HOST, '/web')
    expect(answeredBy(page)).toBe('web')
    expect(page.headers['x-snippet']).toBeUndefined()
    expect(answeredBy(await forbidden.get(HOST, '/api'))).toBe('api')
  })

  it('accepts only what HAProxy accepts: every kind of allowed line, in one backend, passes haproxy -c', async () => {
    const rendered = await renderToDir(
      [
        ...cluster(services, certificate).filter((object) => object.kind !== 'Service'),
        service('web', [{ port: 80 }], 'default', { [BACKEND_SNIPPET]: ALLOWED_SNIPPET_LINES.join('\n') }),
      ],
      { snippets: 'allowed', httpBind: '127.0.0.1:1', httpsBind: '127.0.0.1:2' },
    )
    try {
      expect(rendered.model.rejections.filter((rejection) => rejection.object === 'Service default/web')).toEqual([])
      expect(rendered.files.get(FILES.backends)).toContain(ALLOWED_SNIPPET_LINES.at(-1))
      const check = await haproxyCheck(rendered.dir)
      expect(check.ok, check.output).toBe(true)
    } finally {
      await removeTempDir(rendered.dir)
    }
  })

  describe('is refused for a reason: rendered raw into their backends', () => {
    let dir: string | undefined
    let stop: (() => Promise<void>) | undefined
    let get: (path: string) => ReturnType<typeof request>

    /** The rendered configuration with each snippet written into its backend as the old deny-list let through. */
    async function renderRaw(snippets: Record<string, string>, binds: { httpBind: string; httpsBind: string }) {
      const rendered = await renderToDir(cluster(services, certificate), { snippets: 'allowed', ...binds })
      const path = join(rendered.dir, FILES.backends)
      let backends = await readFile(path, 'utf8')
      for (const [name, snippet] of Object.entries(snippets)) {
        const header = `backend ${backendName({ namespace: 'default', service: name, port: 80 })}\n`
        expect(backends).toContain(header)
        backends = backends.replace(
          header,
          `${header}${snippet
            .split('\n')
            .map((line) => `    ${line.trim()}\n`)
            .join('')}`,
        )
      }
      await writeFile(path, backends)
      return rendered.dir
    }

    beforeAll(async () => {
      const [httpPort, httpsPort] = [await freePort(), await freePort()]
      dir = await renderRaw(Object.fromEntries(ESCAPE_NAMES.map((name) => [name, ESCAPES[name].snippet])), {
        httpBind: `127.0.0.1:${httpPort}`,
        httpsBind: `127.0.0.1:${httpsPort}`,
      })
      const check = await haproxyCheck(dir)
      if (!check.ok) throw new Error(`haproxy -c rejected the raw escapes:\n${check.output}`)
      stop = (await startHaproxy({ dir, readyPorts: [httpPort, httpsPort] })).stop
      get = (path) => request(`http://127.0.0.1:${httpPort}${path}`, { headers: { host: HOST } })
    })

    afterAll(async () => {
      await stop?.()
      if (dir) await removeTempDir(dir)
    })

    it('return … file serves another namespace’s private key', async () => {
      const pem = await get('/pem')
      expect(pem.status).toBe(200)
      expect(pem.body).toContain(certificate.keyPem.trim())
    })

    it('env() in a log-format string sends HAProxy’s environment to the client', async () => {
      expect((await get('/env')).headers['x-env']).toBe(process.env.PATH)
    })

    it('stats admin shows every tenant’s backends and offers to take their servers down', async () => {
      const stats = await get('/stats')
      expect(stats.status).toBe(200)
      expect(stats.body).toContain(web)
      expect(stats.body).toContain('<option value="maint">Set state to MAINT</option>')
    })

    it('set-map on the exact-path map hands another tenant’s route to this backend', async () => {
      expect(answeredBy(await get('/web'))).toBe('web')
      await get('/mapper')
      expect(answeredBy(await get('/web'))).toBe('mapper')
    })
  })

  it('is refused for a reason: rendered raw, the hostile snippet escapes its backend (haproxy -c fails on the servers it captured), and one line more makes it a listener HAProxy accepts', async () => {
    const rendered = await renderToDir(cluster(services, certificate), { snippets: 'allowed', httpBind: '127.0.0.1:1', httpsBind: '127.0.0.1:2' })
    const path = join(rendered.dir, FILES.backends)
    const clean = await readFile(path, 'utf8')
    // Where the snippet goes in a backend: after the backend's own rules.
    const start = ['backend default_api_80', ...SET_TIMEOUT_RULES, ''].join('\n')
    const inject = (snippet: string) =>
      clean.replace(
        start,
        `${start}${snippet
          .split('\n')
          .map((line) => `    ${line.trim()}`)
          .join('\n')}\n`,
      )
    try {
      await writeFile(path, inject(HOSTILE))
      const broken = await haproxyCheck(rendered.dir)
      expect(broken.ok).toBe(false)
      expect(broken.output).toMatch(/'server' not allowed because frontend 'evil' has no backend capability/)
      await writeFile(path, inject(`${HOSTILE}\nbackend resumed`))
      const accepted = await haproxyCheck(rendered.dir)
      expect(accepted.ok, accepted.output).toBe(true)
    } finally {
      await removeTempDir(rendered.dir)
    }
  })

  it('hapedge render --allow-snippets renders what the cluster setting does; without the flag each snippet is a warning', async () => {
    const dir = await makeTempDir('hapedge-snippets-cli')
    try {
      const input = join(dir, 'objects.json')
      const objects = cluster(services, certificate)
      await writeFile(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }))
      const binds = ['--http-bind', '127.0.0.1:8080', '--https-bind', '127.0.0.1:8443']
      const on = await hapedge(['render', '--in', input, '--out', join(dir, 'on'), ...binds, '--allow-snippets'])
      const off = await hapedge(['render', '--in', input, '--out', join(dir, 'off'), ...binds])
      expect([on.code, off.code]).toEqual([0, 0])
      expect(on.stderr).toMatch(/^Service default\/api: hapedge\.io\/backend-config-snippet line 2 opens a section/m)
      expect(on.stderr).toMatch(/^Service default\/pem: hapedge\.io\/backend-config-snippet line 1: "file" is not allowed in a backend snippet/m)
      expect(on.stderr).not.toMatch(/Service default\/web/)
      expect(off.stderr).toMatch(/^Service default\/web: snippets are not allowed on this cluster/m)
      const options = { httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' }
      const rendered = await readTextTree(join(dir, 'on'))
      rendered.delete('manifest.json')
      expect(new Map([...rendered].sort())).toEqual(new Map([...fullRebuild(objects, { ...options, snippets: 'allowed' }).files].sort()))
      expect(rendered.get(FILES.backends)).toContain('X-Snippet yes')
      expect((await haproxyCheck(join(dir, 'on'))).ok).toBe(true)
    } finally {
      await removeTempDir(dir)
    }
  })
})
