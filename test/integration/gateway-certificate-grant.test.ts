import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatewayApiStatus } from '../../core/gateway-status/gateway-api-status.ts'
import type { GatewayObjectStatus } from '../../core/kube/gateway-status.ts'
import { makeCertificate } from '../support/certificates.ts'
import { GATEWAY_TO_SECRET, gateway, gatewayClass, httpRoute, referenceGrant } from '../support/gateway-objects.ts'
import { tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'
import { handshake } from './tls-handshake.ts'

/**
 * A Gateway of one namespace whose HTTPS listener names a Secret of another, as the Gateway API's
 * Core cases GatewaySecretReferenceGrantAllInNamespace, GatewaySecretReferenceGrantSpecific,
 * GatewaySecretMissingReferenceGrant and GatewaySecretInvalidReferenceGrant set it up (their
 * namespaces, a ReferenceGrant in the Secret's namespace or in a wrong one): HAProxy serves that
 * certificate by SNI exactly when the grant permits it, and the listener's ResolvedRefs says so.
 */
const INFRA = 'gateway-conformance-infra'
const WEB = 'gateway-conformance-web-backend'
const APP = 'gateway-conformance-app-backend'

const cases: { name: string; grant?: ReturnType<typeof referenceGrant>; served: boolean; resolvedRefs: string }[] = [
  {
    name: 'GatewaySecretReferenceGrantAllInNamespace',
    grant: referenceGrant('reference-grant', WEB, INFRA, undefined, GATEWAY_TO_SECRET),
    served: true,
    resolvedRefs: 'True/ResolvedRefs',
  },
  {
    name: 'GatewaySecretReferenceGrantSpecific',
    grant: referenceGrant('reference-grant', WEB, INFRA, 'certificate', GATEWAY_TO_SECRET),
    served: true,
    resolvedRefs: 'True/ResolvedRefs',
  },
  { name: 'GatewaySecretMissingReferenceGrant', served: false, resolvedRefs: 'False/RefNotPermitted' },
  {
    name: 'GatewaySecretInvalidReferenceGrant',
    grant: referenceGrant('reference-grant-wrong-namespace', APP, INFRA, 'certificate', GATEWAY_TO_SECRET),
    served: false,
    resolvedRefs: 'False/RefNotPermitted',
  },
]

describe('a certificate of another namespace, through HAProxy', () => {
  let services: ServiceBackends
  let certDir: string
  const clusters = new Map<string, ServedCluster>()

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-gateway-certificate-grant')
    const site = await makeCertificate({ dir: certDir, hosts: ['site.gw.test'], name: 'site' })
    const own = await makeCertificate({ dir: certDir, hosts: ['own.gw.test'], name: 'own' })
    services = await startServices(['site', 'own'])
    const web = gateway(
      'gateway-secret-reference-grant',
      [
        { name: 'https', protocol: 'HTTPS', hostname: 'site.gw.test', certificate: 'certificate', certificateNamespace: WEB, from: 'All' },
        // A certificate of its own namespace, so that the HTTPS bind is there whatever the grant.
        { name: 'own', protocol: 'HTTPS', hostname: 'own.gw.test', certificate: 'own', from: 'All' },
      ],
      { namespace: INFRA },
    )
    const objects = [
      ...services.objects,
      gatewayClass(),
      web,
      tlsSecret('certificate', site.certPem, site.keyPem, WEB),
      tlsSecret('own', own.certPem, own.keyPem, INFRA),
      httpRoute({ name: 'site', parents: [{ name: web.metadata.name, namespace: INFRA, sectionName: 'https' }], rules: [{ backends: [{ service: 'site' }] }] }),
      httpRoute({ name: 'own', parents: [{ name: web.metadata.name, namespace: INFRA, sectionName: 'own' }], rules: [{ backends: [{ service: 'own' }] }] }),
    ]
    for (const { name, grant } of cases) clusters.set(name, await serveCluster(grant ? [...objects, grant] : objects))
  })

  afterAll(async () => {
    for (const cluster of clusters.values()) await cluster.stop()
    await services?.close()
    if (certDir) await removeTempDir(certDir)
  })

  for (const { name, served, resolvedRefs } of cases)
    it(`${name}: ${served ? 'serves' : 'does not serve'} the other namespace's certificate by SNI; the listener's ResolvedRefs is ${resolvedRefs}`, async () => {
      const cluster = clusters.get(name)!
      expect(await handshake(cluster.httpsPort, 'own.gw.test')).toEqual({ served: 'DNS:own.gw.test' })
      const site = await handshake(cluster.httpsPort, 'site.gw.test')
      if (served) {
        expect(site).toEqual({ served: 'DNS:site.gw.test' })
        expect(answeredBy(await cluster.https('site.gw.test', '/'))).toBe('site')
      } else expect(site.served).toBeUndefined()
      const gatewayStatus = gatewayApiStatus(cluster.state, '2026-12-05T00:00:00.000Z').objects.find((object) => object.kind === 'Gateway')
      const [listener] = (gatewayStatus as Extract<GatewayObjectStatus, { kind: 'Gateway' }>).status.listeners
      const condition = listener!.conditions.find((one) => one.type === 'ResolvedRefs')!
      expect(`${condition.status}/${condition.reason}`).toBe(resolvedRefs)
      if (!served) expect(condition.message).toContain(`no ReferenceGrant in namespace ${WEB} lets Gateways of ${INFRA} refer to Secret certificate`)
    })
})
