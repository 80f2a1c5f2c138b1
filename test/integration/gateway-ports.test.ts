import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClusterOptions } from '../../core/model/settings.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { makeCertificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { request } from '../support/http-client.ts'
import { tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { added, deleted, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy, serveCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A Gateway listener on a port besides 80 and 443, served on a socket of its own when the
 * cluster's gatewayPorts name it (PortUnavailable otherwise), through the real HAProxy run as the
 * agent runs it: the port that appears is a checked reload, the routes that come and go on it
 * runtime map edits, and a route of one port is never served on another.
 */

const onPort = (port: number, host: string, path: string) => request(`http://127.0.0.1:${port}${path}`, { headers: { host } })

/** The Gateway's report under these options (the full rebuild, which the incremental path equals: invariant.test.ts). */
const portRefusal = (objects: unknown[], options: Partial<ClusterOptions>) =>
  fullRebuild(objects, options).model.rejections.find((rejection) => rejection.object === 'Gateway default/edge')?.reason

describe('a Gateway listener port of its own, through HAProxy', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster
  let objects: unknown[]

  beforeAll(async () => {
    services = await startServices(['main', 'alt'])
    objects = [
      ...services.objects,
      gatewayClass(),
      gateway('edge', [
        { name: 'web', hostname: 'a.gw.test' },
        { name: 'alt', port: 8080, hostname: 'a.gw.test' },
      ]),
      httpRoute({ name: 'main', parents: [{ name: 'edge', port: 80 }], rules: [{ backends: [{ service: 'main' }] }] }),
      httpRoute({
        name: 'alt',
        parents: [{ name: 'edge', port: 8080 }],
        rules: [{ matches: [{ type: 'PathPrefix', value: '/alt' }], backends: [{ service: 'alt' }] }],
      }),
    ]
    cluster = await startRuntimeCluster(objects, 'hapedge-gateway-ports')
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('is PortUnavailable until the options name it; then a reload opens its socket, where only its routes are served', async () => {
    expect(portRefusal(objects, cluster.live.options)).toMatch(/spec\.listeners\[1\]\.port: 8080 is not served by hapedge: .*gatewayPorts \(none\)/)
    expect(answeredBy(await onPort(cluster.httpPort, 'a.gw.test', '/alt'))).toBe('main')

    const bound = await freePort()
    cluster.live.options = { ...cluster.live.options, gatewayPorts: [{ port: 8080, protocol: 'HTTP', bind: `127.0.0.1:${bound}` }] }
    const { agentPlan } = await cluster.byReload([])
    expect(agentPlan.reasons).toContain('10-frontend.cfg changed')
    expect(portRefusal(objects, cluster.live.options)).toBeUndefined()

    expect(answeredBy(await onPort(bound, 'a.gw.test:8080', '/alt/x'))).toBe('alt')
    // The port-80 listener's route is not served on 8080, nor the 8080 listener's on 80.
    expect(answeredBy(await onPort(bound, 'a.gw.test:8080', '/'))).toBe('HTTP 404')
    expect(answeredBy(await onPort(cluster.httpPort, 'a.gw.test', '/alt'))).toBe('main')
    // A name no listener of the port has: its rules without host, none here.
    expect(answeredBy(await onPort(bound, 'b.gw.test:8080', '/alt'))).toBe('HTTP 404')

    const late = httpRoute({
      name: 'late',
      parents: [{ name: 'edge', sectionName: 'alt' }],
      rules: [{ matches: [{ type: 'Exact', value: '/late' }], backends: [{ service: 'alt' }] }],
    })
    const { applied } = await cluster.atRuntime([added(late)])
    expect(applied.maps.length).toBeGreaterThan(0)
    expect(answeredBy(await onPort(bound, 'a.gw.test:8080', '/late'))).toBe('alt')
    expect(answeredBy(await onPort(cluster.httpPort, 'a.gw.test', '/late'))).toBe('main')

    await cluster.atRuntime([deleted(late)])
    expect(answeredBy(await onPort(bound, 'a.gw.test:8080', '/late'))).toBe('HTTP 404')
  })
})

describe('an HTTPS listener port of its own, through HAProxy', () => {
  it('serves its certificate and routes on its own bind, and its routes are not served on the HTTPS bind', async () => {
    const certDir = await makeTempDir('hapedge-gateway-ports-certs')
    const services = await startServices(['secure'])
    try {
      const certificate = await makeCertificate({ dir: certDir, hosts: ['secure.gw.test'], name: 'secure' })
      const cluster = await serveCluster(
        [
          ...services.objects,
          tlsSecret('secure-tls', certificate.certPem, certificate.keyPem),
          gatewayClass(),
          gateway('edge', [{ name: 'tls', protocol: 'HTTPS', port: 8443, hostname: 'secure.gw.test', certificate: 'secure-tls' }]),
          httpRoute({ name: 'secure', parents: [{ name: 'edge', sectionName: 'tls' }], rules: [{ backends: [{ service: 'secure' }] }] }),
        ],
        { ownPorts: [{ port: 8443, protocol: 'HTTPS' }] },
      )
      try {
        const own = await cluster.https('secure.gw.test:8443', '/', 'secure.gw.test', { ca: certificate.certPem })
        expect(answeredBy(own)).toBe('secure')
        expect(answeredBy(await cluster.https('secure.gw.test', '/', 'secure.gw.test', { ca: certificate.certPem }))).toBe('HTTP 404')
      } finally {
        await cluster.stop()
      }
    } finally {
      await services.close()
      await removeTempDir(certDir)
    }
  })
})
