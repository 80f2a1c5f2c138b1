import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'
import type { GatewayObjectStatus } from '../../../core/kube/gateway-status.ts'
import { readObject } from '../../../core/kube/objects.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { GATEWAY_TO_SECRET, gateway, gatewayClass, httpRoute, referenceGrant } from '../../support/gateway-objects.ts'
import { endpointSlice, service, tlsSecret } from '../../support/objects.ts'

/**
 * A Gateway's HTTPS listener (whose route is of a third namespace, so that a grant's change
 * re-derives it as the Gateway's, not as its namespace's routes) naming a Secret of another namespace: served when a ReferenceGrant
 * there lets Gateways of the Gateway's namespace refer to it (all its Secrets, or that one), else
 * ResolvedRefs False RefNotPermitted; and a grant or Secret that comes or goes re-derives the
 * Gateway's hosts only, ending as a full rebuild does.
 */

const site = fixtureCertificate('shop.example.com')
const siteCert = tlsSecret('site-cert', site.certPem, site.keyPem, 'certs')
const infraGateway = gateway(
  'web',
  [{ name: 'https', protocol: 'HTTPS', hostname: 'shop.example.com', certificate: 'site-cert', certificateNamespace: 'certs', from: 'All' }],
  {
    namespace: 'infra',
  },
)
const own = gateway('own', [{ name: 'http', hostname: 'other.example.com' }])
const objects = [
  gatewayClass(),
  infraGateway,
  own,
  siteCert,
  service('app', [{ port: 80 }], 'apps'),
  endpointSlice('app', ['10.0.0.1'], [{ port: 8080 }], { namespace: 'apps' }),
  service('app', [{ port: 80 }]),
  endpointSlice('app', ['10.0.0.2'], [{ port: 8080 }]),
  httpRoute({ name: 'site', namespace: 'apps', parents: [{ name: 'web', namespace: 'infra' }], rules: [{ backends: [{ service: 'app' }] }] }),
  httpRoute({ name: 'other', parents: [{ name: 'own' }], rules: [{ backends: [{ service: 'app' }] }] }),
]
const allSecrets = referenceGrant('certs', 'certs', 'infra', undefined, GATEWAY_TO_SECRET)
const thatSecret = referenceGrant('certs', 'certs', 'infra', 'site-cert', GATEWAY_TO_SECRET)
const anotherSecret = referenceGrant('certs', 'certs', 'infra', 'other-cert', GATEWAY_TO_SECRET)
const routesNotGateways = referenceGrant('certs', 'certs', 'infra', undefined, { from: 'HTTPRoute', to: 'Secret' })
const SERVED = 'tls/certs_site-cert.pem shop.example.com\n'

function listenerConditions(present: unknown[]): string[] {
  const state = new ClusterState()
  for (const object of present) state.apply(readObject(object))
  const web = gatewayApiStatus(state, '2026-12-05T00:00:00.000Z').objects.find((object) => object.kind === 'Gateway' && object.name === 'web')
  const [listener] = (web as Extract<GatewayObjectStatus, { kind: 'Gateway' }>).status.listeners
  return listener!.conditions.map(({ type, status, reason }) => `${type}/${status}/${reason}`)
}

describe('a certificateRef to a Secret of another namespace', () => {
  it('is served when a ReferenceGrant there lets Gateways of the namespace refer to all its Secrets, or to that one', () => {
    for (const grant of [allSecrets, thatSecret]) {
      const { files, model } = fullRebuild([...objects, grant])
      expect(files.get(FILES.crtList)).toBe(SERVED)
      expect(model.hosts.get('shop.example.com')!.tlsSecret).toBe('certs/site-cert')
      expect(model.rejections).toEqual([])
      expect(listenerConditions([...objects, grant])).toContain('ResolvedRefs/True/ResolvedRefs')
    }
  })

  it('is not served without such a grant (none, another Secret, another kind): ResolvedRefs False RefNotPermitted, said in the report', () => {
    for (const grants of [[], [anotherSecret], [routesNotGateways]]) {
      const { files, model } = fullRebuild([...objects, ...grants])
      expect(files.get(FILES.crtList) ?? '').toBe('')
      expect(model.rejections).toContainEqual({
        object: 'Gateway infra/web',
        reason:
          'spec.listeners[0].tls.certificateRefs[0]: no ReferenceGrant in namespace certs lets Gateways of infra refer to Secret site-cert (RefNotPermitted), so the listener serves no certificate',
      })
      expect(listenerConditions([...objects, ...grants])).toEqual([
        'Accepted/True/Accepted',
        'Programmed/False/Invalid',
        'ResolvedRefs/False/RefNotPermitted',
        'Conflicted/False/NoConflicts',
      ])
    }
  })

  it('permitted but missing is InvalidCertificateRef', () => {
    const present = [...objects.filter((object) => object !== siteCert), allSecrets]
    expect(listenerConditions(present)).toContain('ResolvedRefs/False/InvalidCertificateRef')
    expect(fullRebuild(present).model.rejections.map(({ reason }) => reason)).toContain(
      'spec.listeners[0].tls.certificateRefs[0]: Secret certs/site-cert does not exist (or is not of type kubernetes.io/tls)',
    )
  })

  it('a grant or the Secret coming or going re-derives the Gateway’s host only, as a full rebuild says', () => {
    const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
    const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
    const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })
    const steps: { events: WatchEvent[]; present: unknown[]; crtList: string }[] = [
      { events: objects.map(added), present: objects, crtList: '' },
      { events: [added(allSecrets)], present: [...objects, allSecrets], crtList: SERVED },
      { events: [modified(anotherSecret)], present: [...objects, anotherSecret], crtList: '' },
      { events: [modified(thatSecret)], present: [...objects, thatSecret], crtList: SERVED },
      { events: [deleted(siteCert)], present: [...objects.filter((object) => object !== siteCert), thatSecret], crtList: '' },
      { events: [added(siteCert)], present: [...objects, thatSecret], crtList: SERVED },
      { events: [deleted(thatSecret)], present: objects, crtList: '' },
    ]
    const live = new LiveCluster()
    for (const { events, present, crtList } of steps) {
      const applied = live.apply(events)
      expect(live.files().get(FILES.crtList) ?? '').toBe(crtList)
      expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild(present).files))
      // The Gateway of the default namespace's host is not derived again: no map line of other.example.com changes.
      if (events.length === 1) expect(applied.plan.maps.map(({ key }) => key).filter((key) => key.startsWith('other.example.com'))).toEqual([])
    }
  })
})
