import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FILES } from '../../../core/render/files.ts'
import { renderCommand } from '../../../processes/cli/render-command.ts'
import { UsageError } from '../../../processes/cli/usage-error.ts'
import { INVALID_BINDS, VALID_BINDS } from '../../support/bind-addresses.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { ingress, service, tlsSecret } from '../../support/objects.ts'
import { hapedge, projectRoot } from '../../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

const EXAMPLE = join(projectRoot, 'infra/examples')

describe('hapedge render --http-bind / --https-bind', () => {
  let out: string
  beforeEach(async () => {
    out = await makeTempDir('hapedge-render-binds')
    vi.spyOn(console, 'log').mockImplementation(() => {})
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await removeTempDir(out)
  })

  it.each(['http-bind', 'https-bind'])('--%s refuses what registration and PATCH refuse, saying why, before reading any input', async (flag) => {
    for (const [bind, problem] of INVALID_BINDS) {
      const run = renderCommand(['--in', join(out, 'absent'), '--out', out, `--${flag}`, bind])
      await expect(run, bind).rejects.toThrow(UsageError)
      await expect(run, bind).rejects.toThrow(problem)
      await expect(run, bind).rejects.toThrow(`--${flag} ${bind}: `)
    }
  })

  it('renders every valid form as sent', async () => {
    for (const bind of VALID_BINDS) {
      expect(await renderCommand(['--in', EXAMPLE, '--out', out, '--http-bind', bind, '--https-bind', bind]), bind).toBe(0)
      const frontend = await readFile(join(out, FILES.frontend), 'utf8')
      expect(frontend, bind).toContain(`    bind ${bind}\n`)
      expect(frontend, bind).toContain(`    bind ${bind} ssl strict-sni crt-list`)
    }
  })

  it('exits 2 naming the flag and the address when run as a command', async () => {
    const run = await hapedge(['render', '--in', EXAMPLE, '--out', out, '--http-bind', '999.999.999.999:80'])
    expect(run).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^hapedge render: --http-bind 999\.999\.999\.999:80: "999\.999\.999\.999" is not an IPv4 address/),
    })
  }, 30_000)
})

describe('hapedge render and TLS Secrets', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-render-tls')))
  afterEach(async () => {
    vi.restoreAllMocks()
    await removeTempDir(dir)
  })

  it('rejects a Secret whose key is not its certificate’s, as a write does, and renders its hosts without it', async () => {
    const shop = fixtureCertificate('shop.example.com')
    const objects = [
      ingress({
        name: 'shop',
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
        rules: [{ host: 'shop.example.com', paths: [{ service: 'web' }] }],
      }),
      tlsSecret('shop-tls', shop.certPem, fixtureCertificate('apps.example.com').keyPem),
    ]
    await writeFile(join(dir, 'objects.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }))
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))
    vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(await renderCommand(['--in', join(dir, 'objects.json'), '--out', join(dir, 'out')])).toBe(0)
    expect(errors).toContain('Secret default/shop-tls: tls.key does not match the certificate in tls.crt')
    await expect(readFile(join(dir, 'out', FILES.crtList), 'utf8')).rejects.toThrow('ENOENT')
  })
})

describe('hapedge render and annotations', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-render-annotations')))
  afterEach(async () => {
    vi.restoreAllMocks()
    await removeTempDir(dir)
  })

  it('warns on stderr of each annotation it does not honour, rejects the Ingress whose access control it does not, and counts both', async () => {
    const objects = [
      ingress({
        name: 'annotated',
        annotations: { 'nginx.ingress.kubernetes.io/proxy-buffering': 'on', 'ingress.kubernetes.io/ssl-redirect': 'false' },
        rules: [{ host: 'annotated.example.com', paths: [{ service: 'web' }] }],
      }),
      ingress({
        name: 'guarded',
        annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
        rules: [{ host: 'guarded.example.com', paths: [{ service: 'web' }] }],
      }),
    ]
    await writeFile(join(dir, 'objects.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }))
    const errors: string[] = []
    const logs: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))
    vi.spyOn(console, 'log').mockImplementation((line: string) => void logs.push(line))
    expect(await renderCommand(['--in', join(dir, 'objects.json'), '--out', join(dir, 'out')])).toBe(0)
    expect(errors).toEqual([
      expect.stringMatching(
        /^Ingress default\/guarded: metadata\.annotations\["nginx\.ingress\.kubernetes\.io\/enable-modsecurity"\]: .*its routes answer 503$/,
      ),
      'Ingress default/annotated: warning: nginx.ingress.kubernetes.io/proxy-buffering: not supported by hapedge',
    ])
    expect(logs[0]).toMatch(/, 1 rejected \(see above\), 1 annotation warnings \(see above\)$/)
    expect(await readFile(join(dir, 'out', FILES.prefixMap), 'utf8')).toContain('guarded.example.com/ hapedge-refused\n')
  })
})

describe('hapedge render --gateway-port', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-render-gateway-ports')))
  afterEach(async () => {
    vi.restoreAllMocks()
    await removeTempDir(dir)
  })

  const objects = [
    service('alt'),
    gatewayClass(),
    gateway('edge', [{ name: 'alt', port: 8080, hostname: 'a.gw.test' }]),
    httpRoute({ name: 'alt', parents: [{ name: 'edge', port: 8080 }], rules: [{ backends: [{ service: 'alt' }] }] }),
  ]

  /** Renders `objects` with `flags`, answering stderr's lines and the frontend written. */
  async function rendered(flags: string[]) {
    await writeFile(join(dir, 'objects.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }))
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))
    vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(await renderCommand(['--in', join(dir, 'objects.json'), '--out', join(dir, 'out'), ...flags])).toBe(0)
    return { errors, frontend: await readFile(join(dir, 'out', FILES.frontend), 'utf8') }
  }

  it('serves a listener on the port named, on a socket of its own, as the cluster setting gatewayPorts does', async () => {
    const without = await rendered([])
    expect(without.errors).toEqual([
      expect.stringMatching(/^Gateway default\/edge: spec\.listeners\[0\]\.port: 8080 is not served by hapedge: .*gatewayPorts \(none\)$/),
      expect.stringMatching(/^HTTPRoute default\/alt: .*port 8080 is not served by hapedge.*\(NotAllowedByListeners\)/),
    ])
    expect(without.frontend).not.toContain('gateway-port-8080')

    const bound = await rendered(['--gateway-port', '8080/HTTP@127.0.0.1:18080', '--gateway-port', '9443/HTTPS'])
    expect(bound.errors).toEqual([])
    expect(bound.frontend).toContain('    bind 127.0.0.1:18080 name gateway-port-8080\n')
  })

  it('refuses what registration refuses, naming the value, before reading any input', async () => {
    const refused: Array<[string[], string]> = [
      [['8080'], '--gateway-port 8080: must be PORT/PROTOCOL'],
      [['8080/UDP'], '--gateway-port 8080/UDP: protocol: must be "HTTP" or "HTTPS"'],
      [['8080/HTTP@999.1.1.1:80'], '--gateway-port 8080/HTTP@999.1.1.1:80: bind: "999.1.1.1" is not an IPv4 address'],
      [['443/HTTPS'], '--gateway-port 443/HTTPS: port: 443 is served on the HTTP or HTTPS bind'],
      [['8080/HTTP', '8080/HTTPS@:8081'], '--gateway-port 8080/HTTPS@:8081: port: 8080 is named twice'],
      [['8080/HTTP@:80'], "--gateway-port: bind :80 is on the HTTP or HTTPS bind's port"],
    ]
    for (const [values, problem] of refused) {
      const run = renderCommand(['--in', join(dir, 'absent'), '--out', dir, ...values.flatMap((value) => ['--gateway-port', value])])
      await expect(run, values.join(' ')).rejects.toThrow(UsageError)
      await expect(run, values.join(' ')).rejects.toThrow(problem)
    }
  })
})
