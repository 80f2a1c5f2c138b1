import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { ClusterOptions, GatewayPort } from '../../../core/model/settings.ts'
import { FILES, portCrtList } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { configMap, endpointSlice, service, tlsSecret } from '../../support/objects.ts'

/**
 * One name given a certificate on the HTTPS bind and another on an HTTPS port of its own: each
 * bind's crt-list lists its own listeners' certificates, so each port serves its own, whatever the
 * cluster's gatewayPorts and default certificate become (incrementally as a full rebuild says).
 */

const shop = fixtureCertificate('shop.example.com')
const apps = fixtureCertificate('apps.example.com')
const edge = gateway('edge', [
  { name: 'tls', protocol: 'HTTPS', hostname: 'shop.example.com', certificate: 'shop-tls' },
  { name: 'alt-tls', protocol: 'HTTPS', port: 8443, hostname: 'shop.example.com', certificate: 'apps-tls' },
])
const objects = [
  gatewayClass(),
  edge,
  tlsSecret('shop-tls', shop.certPem, shop.keyPem),
  tlsSecret('apps-tls', apps.certPem, apps.keyPem),
  service('web', [{ port: 80 }]),
  endpointSlice('web', ['10.0.0.1'], [{ port: 8080 }]),
  httpRoute({ name: 'web', parents: [{ name: 'edge' }], rules: [{ backends: [{ service: 'web' }] }] }),
]
const https8443: GatewayPort[] = [{ port: 8443, protocol: 'HTTPS', bind: '0.0.0.0:8443' }]
const http8443: GatewayPort[] = [{ port: 8443, protocol: 'HTTP', bind: '0.0.0.0:8443' }]
const withDefault = configMap({ 'default-ssl-certificate': 'default/shop-tls' })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })

describe('a name given different certificates on two HTTPS ports', () => {
  it('is served each port’s own: the HTTPS bind’s crt-list and the port’s list each name theirs', () => {
    const { files, model } = fullRebuild(objects, { gatewayPorts: https8443 })
    expect(files.get(FILES.crtList)).toBe('tls/default_shop-tls.pem shop.example.com\n')
    expect(files.get(portCrtList(8443))).toBe('tls/default_apps-tls.pem shop.example.com\n')
    expect(files.get(FILES.frontend)).toContain('name gateway-port-8443 ssl strict-sni crt-list tls/crt-list-8443.txt')
    expect(model.rejections).toEqual([])
  })

  it('follows the ports and the default certificate coming and going, incrementally as a full rebuild says', () => {
    const steps: { options: Partial<ClusterOptions>; events: (ReturnType<typeof added> | ReturnType<typeof deleted>)[]; present: unknown[] }[] = [
      { options: { gatewayPorts: https8443 }, events: objects.map(added), present: objects },
      { options: {}, events: [], present: objects },
      { options: { gatewayPorts: https8443 }, events: [added(withDefault)], present: [...objects, withDefault] },
      { options: { gatewayPorts: http8443 }, events: [], present: [...objects, withDefault] },
      { options: { gatewayPorts: https8443 }, events: [deleted(withDefault)], present: objects },
      { options: { gatewayPorts: https8443 }, events: [deleted(objects[3])], present: objects.filter((object) => object !== objects[3]) },
    ]
    const live = new LiveCluster()
    for (const { options, events, present } of steps) {
      live.options = options
      live.apply(events)
      expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild(present, options).files))
    }
    expect(live.files().has(portCrtList(8443))).toBe(false)
  })
})
