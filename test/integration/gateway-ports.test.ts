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
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'
import { handshake } from './tls-handshake.ts'

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

/**
 * A Gateway with an HTTPS listener on the HTTPS bind and one on port 8443, each with a self-signed
 * certificate for its hosts (the first is the listener's hostname) and a route to a Service of
 * its name, served through HAProxy while `check` runs.
 */
async function withHttpsPorts(
  hosts: { main: string[]; port: string[] },
  check: (cluster: ServedCluster, certificates: { main: string; port: string }) => Promise<void>,
): Promise<void> {
  const certDir = await makeTempDir('hapedge-gateway-ports-certs')
  const services = await startServices(['main', 'secure'])
  try {
    const onMain = await makeCertificate({ dir: certDir, hosts: hosts.main, name: 'main' })
    const onPort = await makeCertificate({ dir: certDir, hosts: hosts.port, name: 'port' })
    const cluster = await serveCluster(
      [
        ...services.objects,
        tlsSecret('main-tls', onMain.certPem, onMain.keyPem),
        tlsSecret('port-tls', onPort.certPem, onPort.keyPem),
        gatewayClass(),
        gateway('edge', [
          { name: 'tls', protocol: 'HTTPS', hostname: hosts.main[0], certificate: 'main-tls' },
          { name: 'alt-tls', protocol: 'HTTPS', port: 8443, hostname: hosts.port[0], certificate: 'port-tls' },
        ]),
        httpRoute({ name: 'main', parents: [{ name: 'edge', sectionName: 'tls' }], rules: [{ backends: [{ service: 'main' }] }] }),
        httpRoute({ name: 'secure', parents: [{ name: 'edge', sectionName: 'alt-tls' }], rules: [{ backends: [{ service: 'secure' }] }] }),
      ],
      { ownPorts: [{ port: 8443, protocol: 'HTTPS' }] },
    )
    try {
      await check(cluster, { main: onMain.certPem, port: onPort.certPem })
    } finally {
      await cluster.stop()
    }
  } finally {
    await services.close()
    await removeTempDir(certDir)
  }
}

describe('an HTTPS listener port of its own, through HAProxy', () => {
  it('serves its own certificate for a name another port gives another, and its routes only on its own bind', async () => {
    // One name, a certificate on each port: each also names a marker, which the handshake shows.
    const hosts = { main: ['secure.gw.test', 'main.marker.test'], port: ['secure.gw.test', 'port.marker.test'] }
    await withHttpsPorts(hosts, async (cluster, certificates) => {
      expect(cluster.model.rejections).toEqual([])
      expect((await handshake(cluster.httpsPort, 'secure.gw.test')).served).toBe('DNS:secure.gw.test, DNS:main.marker.test')
      expect((await handshake(cluster.ownPort(8443), 'secure.gw.test')).served).toBe('DNS:secure.gw.test, DNS:port.marker.test')
      expect(answeredBy(await cluster.https('secure.gw.test:8443', '/', 'secure.gw.test', { ca: certificates.port }))).toBe('secure')
      expect(answeredBy(await cluster.https('secure.gw.test', '/', 'secure.gw.test', { ca: certificates.main }))).toBe('main')
    })
  })

  it('offers no certificate of its listeners on the HTTPS bind, nor the HTTPS bind’s on its own', async () => {
    await withHttpsPorts({ main: ['main.gw.test'], port: ['secure.gw.test'] }, async (cluster, certificates) => {
      // strict-sni: a name no line of the bind's crt-list names ends the handshake.
      expect((await handshake(cluster.httpsPort, 'secure.gw.test')).served).toBeUndefined()
      expect((await handshake(cluster.ownPort(8443), 'main.gw.test')).served).toBeUndefined()
      expect((await handshake(cluster.ownPort(8443), 'secure.gw.test')).served).toBe('DNS:secure.gw.test')
      expect(answeredBy(await cluster.https('secure.gw.test:8443', '/', 'secure.gw.test', { ca: certificates.port }))).toBe('secure')
    })
  })
})
