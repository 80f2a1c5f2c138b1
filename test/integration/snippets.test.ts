import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BACKEND_SNIPPET } from '../../core/kube/service.ts'
import { FILES } from '../../core/render/files.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { haproxyCheck } from '../support/haproxy.ts'
import { hapedge } from '../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { fullRebuild } from '../../core/full-rebuild.ts'
import { readTextTree } from './read-tree.ts'
import { answeredBy, renderToDir, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/** A Service's `hapedge.io/backend-config-snippet` through the real HAProxy: loaded and in effect when allowed, refused when it would escape. */

const HOST = 'snippets.test'
const ALLOWED = 'http-response set-header X-Snippet yes\n# set by the Service\ntimeout server 30s'
const HOSTILE = 'timeout server 1s\nfrontend evil\n bind :9999'

/** web's Service carries an allowed snippet, api's a hostile one. */
function cluster(services: ServiceBackends) {
  const backend = (name: string, snippet: string) => {
    const { host, port } = services.backend(name)
    return [service(name, [{ port: 80 }], 'default', { [BACKEND_SNIPPET]: snippet }), endpointSlice(name, [{ address: host, ready: true }], [{ port }])]
  }
  return [
    ...backend('web', ALLOWED),
    ...backend('api', HOSTILE),
    ingress({ name: 'site', rules: [{ host: HOST, paths: [{ path: '/web', pathType: 'Exact', service: 'web' }, { path: '/api', pathType: 'Exact', service: 'api' }] }] }),
  ]
}

describe('configuration snippets in HAProxy', () => {
  let services: ServiceBackends
  let allowed: ServedCluster
  let forbidden: ServedCluster

  beforeAll(async () => {
    services = await startServices(['web', 'api'])
    allowed = await serveCluster(cluster(services), { snippets: 'allowed' })
    forbidden = await serveCluster(cluster(services))
  })

  afterAll(async () => {
    await allowed?.stop()
    await forbidden?.stop()
    await services?.close()
  })

  it('loads an allowed snippet into its Service’s backend, where it takes effect on that backend only', async () => {
    const web = await allowed.get(HOST, '/web')
    expect(answeredBy(web)).toBe('web')
    expect(web.headers['x-snippet']).toBe('yes')
    const api = await allowed.get(HOST, '/api')
    expect(answeredBy(api)).toBe('api')
    expect(api.headers['x-snippet']).toBeUndefined()
  })

  it('refuses a snippet that would open a frontend, naming the Service, and serves its backend without it', async () => {
    expect(allowed.model.rejections).toEqual([{ object: 'Service default/api', reason: expect.stringMatching(/^hapedge\.io\/backend-config-snippet line 2 opens a section \("frontend"\)/) }])
    expect(allowed.files.get(FILES.backends)).not.toMatch(/evil|9999|timeout server 1s/)
  })

  it('renders no snippet while snippets are forbidden, reports both, and serves both routes', async () => {
    expect(forbidden.model.rejections.map((rejection) => rejection.object)).toEqual(['Service default/api', 'Service default/web'])
    expect(forbidden.model.rejections[1]!.reason).toMatch(/^snippets are not allowed on this cluster/)
    const web = await forbidden.get(HOST, '/web')
    expect(answeredBy(web)).toBe('web')
    expect(web.headers['x-snippet']).toBeUndefined()
    expect(answeredBy(await forbidden.get(HOST, '/api'))).toBe('api')
  })

  it('is refused for a reason: rendered raw, the hostile snippet escapes its backend (haproxy -c fails on the servers it captured), and one line more makes it a listener HAProxy accepts', async () => {
    const rendered = await renderToDir(cluster(services), { snippets: 'allowed', httpBind: '127.0.0.1:1', httpsBind: '127.0.0.1:2' })
    const path = join(rendered.dir, FILES.backends)
    const clean = await readFile(path, 'utf8')
    const inject = (snippet: string) => clean.replace('backend default_api_80\n', `backend default_api_80\n${snippet.split('\n').map((line) => `    ${line.trim()}`).join('\n')}\n`)
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
      await writeFile(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: cluster(services) }))
      const binds = ['--http-bind', '127.0.0.1:8080', '--https-bind', '127.0.0.1:8443']
      const on = await hapedge(['render', '--in', input, '--out', join(dir, 'on'), ...binds, '--allow-snippets'])
      const off = await hapedge(['render', '--in', input, '--out', join(dir, 'off'), ...binds])
      expect([on.code, off.code]).toEqual([0, 0])
      expect(on.stderr).toMatch(/^Service default\/api: hapedge\.io\/backend-config-snippet line 2 opens a section/m)
      expect(on.stderr).not.toMatch(/Service default\/web/)
      expect(off.stderr).toMatch(/^Service default\/web: snippets are not allowed on this cluster/m)
      const options = { httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' }
      const rendered = await readTextTree(join(dir, 'on'))
      rendered.delete('manifest.json')
      expect(new Map([...rendered].sort())).toEqual(new Map([...fullRebuild(cluster(services), { ...options, snippets: 'allowed' }).files].sort()))
      expect(rendered.get(FILES.backends)).toContain('X-Snippet yes')
      expect((await haproxyCheck(join(dir, 'on'))).ok).toBe(true)
    } finally {
      await removeTempDir(dir)
    }
  })
})
