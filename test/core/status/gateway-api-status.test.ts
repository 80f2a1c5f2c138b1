import { describe, expect, it } from 'vitest'
import { readObject } from '../../../core/kube/objects.ts'
import type { GatewayObjectStatus } from '../../../core/kube/gateway-status.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { type ClusterOptions, DEFAULT_GATEWAY_CONTROLLER } from '../../../core/model/settings.ts'
import { nextGatewayObjectStatus } from '../../../core/status/carry-gateway-status.ts'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'
import { routeRejection } from '../../../core/model/gateway-verdict.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute, referenceGrant } from '../../support/gateway-objects.ts'
import { service, tlsSecret } from '../../support/objects.ts'

const AT = '2026-12-05T00:00:00.000Z'

function stateOf(objects: unknown[], options: Partial<ClusterOptions> = {}): ClusterState {
  const state = new ClusterState(options)
  for (const object of objects) state.apply(readObject(object))
  return state
}

/** Each object's conditions as `type/status/reason` lines, the listeners' under their names, a route's under its parentRef's name. */
function summary(status: GatewayObjectStatus): Record<string, string[]> {
  const lines = (conditions: { type: string; status: string; reason: string }[]) => conditions.map(({ type, status, reason }) => `${type}/${status}/${reason}`)
  if (status.kind === 'GatewayClass') return { [status.name]: lines(status.status.conditions) }
  if (status.kind === 'Gateway')
    return {
      [status.name]: lines(status.status.conditions),
      ...Object.fromEntries(
        status.status.listeners.map((listener) => [
          `${status.name}.${listener.name}`,
          [...lines(listener.conditions), `attached ${listener.attachedRoutes}`, `kinds ${listener.supportedKinds.map((kind) => kind.kind).join(',')}`],
        ]),
      ),
    }
  return Object.fromEntries(
    status.parents.map((parent) => [`${status.name} → ${parent.parentRef.name}/${parent.parentRef.sectionName ?? '*'}`, lines(parent.conditions)]),
  )
}

const find = (objects: GatewayObjectStatus[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.name === name)!

describe('the Gateway API status hapedge computes from a generation', () => {
  const { certPem, keyPem } = fixtureCertificate('shop.example.com')
  const objects = [
    gatewayClass(),
    gatewayClass('theirs', 'example.com/other-controller'),
    service('web'),
    tlsSecret('shop-tls', certPem, keyPem),
    gateway('edge', [
      { name: 'http' },
      { name: 'https', protocol: 'HTTPS', hostname: 'shop.example.com', certificate: 'shop-tls' },
      { name: 'tcp', protocol: 'TCP', port: 9000 },
      { name: 'missing-cert', protocol: 'HTTPS', certificate: 'nowhere' },
      { name: 'kinds', kinds: ['HTTPRoute', 'TCPRoute'] },
      // A port neither bind is (nor 80, which a Service maps to the HTTP bind): never served there.
      { name: 'alt-port', port: 8080 },
    ]),
    gateway('other', [{ name: 'http' }], { className: 'theirs' }),
    // Served through both HTTP listeners whose hostnames admit it.
    httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'web' }] }] }),
    // Attached, but a filter hapedge does not honour: not served at all, so not Accepted.
    httpRoute({
      name: 'filtered',
      rules: [{ backends: [{ service: 'web' }], filters: [{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }] }],
    }),
    // No listener of that name; a hostname no listener admits.
    httpRoute({ name: 'lost', parents: [{ name: 'edge', sectionName: 'nope' }], rules: [{ backends: [{ service: 'web' }] }] }),
    httpRoute({
      name: 'elsewhere',
      parents: [{ name: 'edge', sectionName: 'https' }],
      hostnames: ['www.other.org'],
      rules: [{ backends: [{ service: 'web' }] }],
    }),
    // Another namespace without a grant, a Service that does not exist.
    httpRoute({ name: 'cross', rules: [{ backends: [{ service: 'api', namespace: 'backend' }] }] }),
    httpRoute({ name: 'ghost', rules: [{ backends: [{ service: 'ghost' }] }] }),
    // Another namespace, which listeners admit only from their own.
    httpRoute({ name: 'stranger', namespace: 'team', parents: [{ name: 'edge', namespace: 'default' }], rules: [{ backends: [{ service: 'web' }] }] }),
    // Only another controller's Gateway: listed with no parents of ours.
    httpRoute({ name: 'foreign', parents: [{ name: 'other' }], rules: [{ backends: [{ service: 'web' }] }] }),
  ]
  const status = gatewayApiStatus(stateOf(objects), AT)

  it('accepts this controller’s GatewayClasses only', () => {
    expect(status.controllerName).toBe(DEFAULT_GATEWAY_CONTROLLER)
    expect(status.objects.filter((object) => object.kind === 'GatewayClass').map(summary)).toEqual([{ hapedge: ['Accepted/True/Accepted'] }])
  })

  it('says of a Gateway which listeners are served, with the specification’s reasons, their route kinds and attached routes', () => {
    expect(status.objects.filter((object) => object.kind === 'Gateway').map((object) => object.name)).toEqual(['edge'])
    const served = ['Accepted/True/Accepted', 'Programmed/True/Programmed', 'ResolvedRefs/True/ResolvedRefs', 'Conflicted/False/NoConflicts']
    expect(summary(find(status.objects, 'Gateway', 'edge'))).toEqual({
      edge: ['Accepted/True/ListenersNotValid', 'Programmed/True/Programmed'],
      'edge.http': [...served, 'attached 4', 'kinds HTTPRoute,GRPCRoute'],
      'edge.https': [...served, 'attached 4', 'kinds HTTPRoute,GRPCRoute'],
      'edge.tcp': ['Accepted/False/UnsupportedProtocol', 'Programmed/False/Invalid', ...served.slice(2), 'attached 0', 'kinds '],
      'edge.missing-cert': [
        'Accepted/True/Accepted',
        'Programmed/False/Invalid',
        'ResolvedRefs/False/InvalidCertificateRef',
        served[3],
        'attached 4',
        'kinds HTTPRoute,GRPCRoute',
      ],
      // TCPRoute is not served, HTTPRoute is: the listener takes the one it can.
      'edge.kinds': [...served, 'attached 4', 'kinds HTTPRoute'],
      'edge.alt-port': ['Accepted/False/PortUnavailable', 'Programmed/False/Invalid', ...served.slice(2), 'attached 0', 'kinds HTTPRoute,GRPCRoute'],
    })
    const tcp = (find(status.objects, 'Gateway', 'edge') as Extract<GatewayObjectStatus, { kind: 'Gateway' }>).status.listeners[2]!
    expect(tcp.conditions[0]!.message).toBe('spec.listeners[2].protocol: TCP is not served by hapedge (HTTP and HTTPS are)')
    const kinds = (find(status.objects, 'Gateway', 'edge') as Extract<GatewayObjectStatus, { kind: 'Gateway' }>).status.listeners[4]!
    expect(kinds.conditions[2]!.message).toContain('spec.listeners[4].allowedRoutes.kinds: TCPRoute not served by hapedge')
    const altPort = (find(status.objects, 'Gateway', 'edge') as Extract<GatewayObjectStatus, { kind: 'Gateway' }>).status.listeners[5]!
    expect(altPort.conditions[0]!.message).toBe(
      "spec.listeners[5].port: 8080 is not served by hapedge: HTTP listeners are served on the HTTP bind's port 80, and on the cluster's gatewayPorts (none)",
    )
  })

  it("serves a listener on one of the cluster's gatewayPorts of its protocol, and refuses one of another protocol", () => {
    const edgeUnder = (gatewayPorts: ClusterOptions['gatewayPorts']) =>
      find(gatewayApiStatus(stateOf(objects, { gatewayPorts }), AT).objects, 'Gateway', 'edge')
    expect(summary(edgeUnder([{ port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080' }]))['edge.alt-port']).toEqual([
      'Accepted/True/Accepted',
      'Programmed/True/Programmed',
      'ResolvedRefs/True/ResolvedRefs',
      'Conflicted/False/NoConflicts',
      'attached 4',
      'kinds HTTPRoute,GRPCRoute',
    ])
    const refused = edgeUnder([{ port: 8080, protocol: 'HTTPS', bind: '0.0.0.0:8080' }]) as Extract<GatewayObjectStatus, { kind: 'Gateway' }>
    expect(refused.status.listeners[5]!.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'PortUnavailable',
      message: "spec.listeners[5].port: 8080 is served by hapedge for HTTPS listeners only (the cluster's gatewayPorts)",
    })
  })

  it('gives each route a parents entry per parentRef of ours, Accepted and ResolvedRefs with the specification’s reasons', () => {
    const routes = Object.assign({}, ...status.objects.filter((object) => object.kind === 'HTTPRoute').map(summary))
    expect(routes).toEqual({
      'shop → edge/*': ['Accepted/True/Accepted', 'ResolvedRefs/True/ResolvedRefs'],
      'filtered → edge/*': ['Accepted/False/UnsupportedValue', 'ResolvedRefs/True/ResolvedRefs'],
      'lost → edge/nope': ['Accepted/False/NoMatchingParent', 'ResolvedRefs/True/ResolvedRefs'],
      'elsewhere → edge/https': ['Accepted/False/NoMatchingListenerHostname', 'ResolvedRefs/True/ResolvedRefs'],
      // Accepted, as the specification asks: the rule answers 500 and ResolvedRefs says why.
      'cross → edge/*': ['Accepted/True/Accepted', 'ResolvedRefs/False/RefNotPermitted'],
      'ghost → edge/*': ['Accepted/True/Accepted', 'ResolvedRefs/False/BackendNotFound'],
      // Its own namespace has no Service web.
      'stranger → edge/*': ['Accepted/False/NotAllowedByListeners', 'ResolvedRefs/False/BackendNotFound'],
    })
    expect(find(status.objects, 'HTTPRoute', 'foreign')).toMatchObject({ parents: [] })
    const filtered = find(status.objects, 'HTTPRoute', 'filtered') as Extract<GatewayObjectStatus, { parents: unknown }>
    expect(filtered.parents[0]).toMatchObject({ parentRef: { name: 'edge' }, controllerName: DEFAULT_GATEWAY_CONTROLLER })
    expect(filtered.parents[0]!.conditions[0]!.message).toContain('spec.rules[0].filters[0]: ExtensionRef is not honoured by hapedge')
    const cross = find(status.objects, 'HTTPRoute', 'cross') as Extract<GatewayObjectStatus, { parents: unknown }>
    expect(cross.parents[0]!.conditions[1]!.message).toBe(
      'spec.rules[0].backendRefs[0]: no ReferenceGrant in namespace backend lets HTTPRoutes of default send to Service api (RefNotPermitted)',
    )
  })

  it('a ReferenceGrant resolves the cross-namespace Service', () => {
    const granted = gatewayApiStatus(stateOf([...objects, referenceGrant('let', 'backend', 'default', 'api'), service('api', [{ port: 80 }], 'backend')]), AT)
    expect(summary(find(granted.objects, 'HTTPRoute', 'cross'))).toEqual({ 'cross → edge/*': ['Accepted/True/Accepted', 'ResolvedRefs/True/ResolvedRefs'] })
  })

  it('Accepted False for a Gateway asking for addresses, and for one without a valid listener', () => {
    const addressed = { ...gateway('pinned', [{ name: 'http' }]), spec: { ...gateway('pinned', [{ name: 'http' }]).spec, addresses: [{ value: '10.0.0.1' }] } }
    const none = gateway('none', [{ name: 'udp', protocol: 'UDP', port: 53 }])
    const computed = gatewayApiStatus(stateOf([gatewayClass(), addressed, none]), AT)
    expect(summary(find(computed.objects, 'Gateway', 'pinned')).pinned).toEqual(['Accepted/False/UnsupportedAddress', 'Programmed/False/Invalid'])
    expect(summary(find(computed.objects, 'Gateway', 'none')).none).toEqual(['Accepted/False/ListenersNotValid', 'Programmed/False/Invalid'])
  })
})

describe('the status written over what an object shows', () => {
  const computed = gatewayApiStatus(
    stateOf([gatewayClass(), service('web'), gateway('edge', [{ name: 'http' }]), httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'web' }] }] })]),
    AT,
  )
  const route = find(computed.objects, 'HTTPRoute', 'shop')
  const theirs = { parentRef: { name: 'mesh', kind: 'Service', group: '' }, controllerName: 'example.com/mesh', conditions: [] }

  it('keeps other controllers’ parents, names the object’s generation, and is undefined when the object shows it already', () => {
    const first = nextGatewayObjectStatus(route, { metadata: { generation: 3 }, status: { parents: [theirs] } }, DEFAULT_GATEWAY_CONTROLLER)!
    expect(first.parents).toEqual([
      theirs,
      expect.objectContaining({
        controllerName: DEFAULT_GATEWAY_CONTROLLER,
        conditions: [expect.objectContaining({ observedGeneration: 3, lastTransitionTime: AT }), expect.anything()],
      }),
    ])
    expect(nextGatewayObjectStatus(route, { metadata: { generation: 3 }, status: first }, DEFAULT_GATEWAY_CONTROLLER)).toBeUndefined()
  })

  it('keeps a condition’s lastTransitionTime while its status stays, and takes the new one when it changes', () => {
    const earlier = '2026-01-01T00:00:00.000Z'
    const shown = nextGatewayObjectStatus(route, { metadata: { generation: 1 }, status: {} }, DEFAULT_GATEWAY_CONTROLLER)!
    const aged = JSON.parse(JSON.stringify(shown).replaceAll(AT, earlier)) as Record<string, unknown>
    // A later commit computing the same status: nothing to write.
    expect(nextGatewayObjectStatus(route, { metadata: { generation: 1 }, status: aged }, DEFAULT_GATEWAY_CONTROLLER)).toBeUndefined()
    // The spec changed (generation 2): every condition names it, and keeps its time.
    const next = nextGatewayObjectStatus(route, { metadata: { generation: 2 }, status: aged }, DEFAULT_GATEWAY_CONTROLLER)!
    const conditions = (next.parents as { conditions: { lastTransitionTime: string; observedGeneration: number }[] }[])[0]!.conditions
    expect(conditions.map((condition) => [condition.lastTransitionTime, condition.observedGeneration])).toEqual([
      [earlier, 2],
      [earlier, 2],
    ])
    // Our entry is gone from the computation (the route left our Gateways): it goes, another controller's stays.
    const gone = nextGatewayObjectStatus(
      { ...route, parents: [] } as GatewayObjectStatus,
      { status: { parents: [theirs, ...(aged.parents as unknown[])] } },
      DEFAULT_GATEWAY_CONTROLLER,
    )!
    expect(gone.parents).toEqual([theirs])
  })
})

describe('GRPCRoute', () => {
  const grpc = (parents: { name: string }[], backends = [{ name: 'web', port: 80 }]) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GRPCRoute',
    metadata: { name: 'echo', namespace: 'default' },
    spec: { parentRefs: parents, rules: [{ matches: [{ method: { service: 'echo.Echo', method: 'Say' } }], backendRefs: backends }] },
  })

  it('reads it, and names the field of a malformed one', () => {
    expect(readObject(grpc([{ name: 'edge' }])).status).toBe('object')
    expect(readObject({ ...grpc([{ name: 'edge' }]), spec: { rules: [{ backendRefs: [{ name: 'web', weight: -1 }] }] } })).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'spec.rules[0].backendRefs[0].weight' }],
    })
  })

  it('is served where it attaches, with its status per parentRef of this cluster’s Gateways as an HTTPRoute’s, and another controller’s is not reported', () => {
    const state = stateOf([
      gatewayClass(),
      gatewayClass('theirs', 'example.com/other'),
      service('web'),
      gateway('edge', [{ name: 'http' }]),
      gateway('grpc-less', [{ name: 'http', kinds: ['HTTPRoute'] }]),
      gateway('other', [{ name: 'http' }], { className: 'theirs' }),
      grpc([{ name: 'edge' }, { name: 'grpc-less' }, { name: 'other' }]),
    ])
    expect(routeRejection(state.grpcRoutes()[0]!, state)).toEqual({
      object: 'GRPCRoute default/echo',
      reason:
        'spec.parentRefs[1]: not attached to Gateway default/grpc-less: listener "http": allowedRoutes.kinds does not list GRPCRoute (NotAllowedByListeners)',
    })
    const status = gatewayApiStatus(state, AT)
    expect(summary(find(status.objects, 'GRPCRoute', 'echo'))).toEqual({
      'echo → edge/*': ['Accepted/True/Accepted', 'ResolvedRefs/True/ResolvedRefs'],
      'echo → grpc-less/*': ['Accepted/False/NotAllowedByListeners', 'ResolvedRefs/True/ResolvedRefs'],
    })
    const other = stateOf([
      gatewayClass('theirs', 'example.com/other'),
      gateway('other', [{ name: 'http' }], { className: 'theirs' }),
      grpc([{ name: 'other' }]),
    ])
    expect(routeRejection(other.grpcRoutes()[0]!, other)).toBeUndefined()
  })
})
