/**
 * The Gateway API's GRPCRoute Core conformance cases, ported as data: each case's ShortName, its
 * manifest (test/fixtures/gateway-conformance, SOURCES.tsv), the routes its Go test asks to be
 * accepted, and the calls it makes: the echo service's method, the authority and metadata, and the
 * backend that answers (none: the call ends UNIMPLEMENTED, as no route takes it).
 */

/** The suite's gRPC echo service, as its manifests name it. */
export const ECHO_SERVICE = 'gateway_api_conformance.echo_basic.grpcecho.GrpcEcho'
export const ECHO_METHODS = ['Echo', 'EchoTwo', 'EchoThree'] as const

export interface GrpcCall {
  method: (typeof ECHO_METHODS)[number]
  /** Default: the Gateway's address, as the suite dials it. */
  authority?: string
  metadata?: Record<string, string>
}

export interface ExpectedGrpcAnswer {
  call: GrpcCall
  /** The Service whose echo answers, in gateway-conformance-infra; absent: UNIMPLEMENTED. */
  backend?: string
}

export interface GrpcConformanceCase {
  name: string
  manifest: string
  /** The GRPCRoutes (`namespace/name`) the Go test asks to be Accepted with their refs resolved. */
  accepted: string[]
  answers: ExpectedGrpcAnswer[]
}

const INFRA = 'gateway-conformance-infra'
const v1 = 'grpc-infra-backend-v1'
const v2 = 'grpc-infra-backend-v2'
const v3 = 'grpc-infra-backend-v3'
const echo = (metadata: Record<string, string>, backend?: string): ExpectedGrpcAnswer => ({
  call: { method: 'Echo', metadata },
  ...(backend ? { backend } : {}),
})
const at = (authority: string, backend?: string): ExpectedGrpcAnswer => ({ call: { method: 'Echo', authority }, ...(backend ? { backend } : {}) })

export const GRPC_CASES: GrpcConformanceCase[] = [
  {
    name: 'GRPCExactMethodMatching',
    manifest: 'grpcroute-exact-method-matching.yaml',
    accepted: [`${INFRA}/exact-matching`],
    answers: [{ call: { method: 'Echo' }, backend: v1 }, { call: { method: 'EchoTwo' }, backend: v2 }, { call: { method: 'EchoThree' } }],
  },
  {
    name: 'GRPCRouteHeaderMatching',
    manifest: 'grpcroute-header-matching.yaml',
    accepted: [`${INFRA}/grpc-header-matching`],
    answers: [
      echo({ Version: 'one' }, v1),
      echo({ Version: 'two' }, v2),
      echo({ Version: 'two', Color: 'orange' }, v1),
      echo({ Version: 'two', Color: 'blue' }, v2),
      echo({ Color: 'orange' }),
      echo({ 'Some-Other-Header': 'one' }),
      echo({ Color: 'blue' }, v1),
      echo({ Color: 'green' }, v1),
      echo({ Color: 'red' }, v2),
      echo({ Color: 'yellow' }, v2),
      echo({ Color: 'purple' }),
    ],
  },
  {
    name: 'GRPCRouteListenerHostnameMatching',
    manifest: 'grpcroute-listener-hostname-matching.yaml',
    accepted: [`${INFRA}/backend-v1`, `${INFRA}/backend-v2`, `${INFRA}/backend-v3`],
    answers: [
      at('bar.com', v1),
      at('foo.bar.com', v2),
      at('baz.bar.com', v3),
      at('boo.bar.com', v3),
      at('multiple.prefixes.bar.com', v3),
      at('multiple.prefixes.foo.com', v3),
      at('foo.com'),
      at('no.matching.host'),
    ],
  },
]
