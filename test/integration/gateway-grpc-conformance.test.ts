import * as grpc from '@grpc/grpc-js'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { gatewayApiStatus } from '../../core/gateway-status/gateway-api-status.ts'
import { fixtureCertificate } from '../support/fixtures.ts'
import { gatewayClass } from '../support/gateway-objects.ts'
import { tlsSecret } from '../support/objects.ts'
import { expectVerdict } from './conformance-answers.ts'
import { echoEndpoints, objectName, readManifest } from './conformance-manifests.ts'
import { grpcCall, grpcServer } from './grpc-echo.ts'
import { ECHO_METHODS, ECHO_SERVICE, GRPC_CASES, type ExpectedGrpcAnswer, type GrpcConformanceCase } from './grpc-conformance-cases.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * The Gateway API's GRPCRoute conformance cases (grpc-conformance-cases.ts), each through the real
 * rendering and the real HAProxy with real gRPC calls: the suite's base manifests, its gRPC echo
 * Services and the case's own manifest, each gRPC Service's pods a gRPC server on loopback that
 * answers every echo method with its identity (namespace/name), as the suite's echo does; the
 * client speaks h2c (prior knowledge) to HAProxy's HTTP bind with the case's authority and
 * metadata. PASSING (gateway-conformance-cases.ts) lists the cases that pass; one that does not
 * must be reported by hapedge, or named in UNREPORTED.
 */

const CLASS = 'hapedge'
const STATUS_TIME = '2024-01-01T00:00:00Z'
const MESSAGE = 'conformance'

describe('the Gateway API conformance cases for GRPCRoute, through HAProxy', () => {
  const servers: grpc.Server[] = []
  let base: unknown[] = []

  beforeAll(async () => {
    const manifest = await readManifest('base.yaml', CLASS)
    const grpcServices = await readManifest('grpc-base.yaml', CLASS)
    const endpoints = []
    for (const service of grpcServices) {
      const identity = `${service.metadata.namespace}/${service.metadata.name}`
      const { server, port } = await grpcServer(identity, grpc.ServerCredentials.createInsecure(), ECHO_METHODS.map(pathOf))
      servers.push(server)
      endpoints.push(echoEndpoints(service, { host: '127.0.0.1', port }))
    }
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    // The base Gateways as the HTTPRoute port has them; its HTTP Services have no endpoints here (no case of this file names them).
    base = [
      gatewayClass(CLASS),
      tlsSecret('tls-validity-checks-certificate', certPem, keyPem, 'gateway-conformance-infra'),
      ...manifest,
      ...grpcServices,
      ...endpoints,
    ]
  })

  afterAll(() => {
    for (const server of servers) server.forceShutdown()
  })

  it.concurrent.each(GRPC_CASES.map((conformanceCase) => [conformanceCase.name, conformanceCase] as const))('%s', async (name, conformanceCase) => {
    const { differences, reports } = await runCase(conformanceCase, base)
    expectVerdict(name, differences, reports)
  })
})

function pathOf(method: string): string {
  return `/${ECHO_SERVICE}/${method}`
}

async function runCase(conformanceCase: GrpcConformanceCase, base: unknown[]) {
  const objects = await readManifest(conformanceCase.manifest, CLASS)
  const cluster = await serveCluster([...base, ...objects])
  try {
    const differences = acceptedDifferences(cluster, conformanceCase.accepted)
    for (const answer of conformanceCase.answers) differences.push(...(await answerDifferences(cluster, answer)))
    const names = new Set(objects.map(objectName))
    return { differences, reports: cluster.model.rejections.filter((report) => names.has(report.object)) }
  } finally {
    await cluster.stop()
  }
}

/** GatewayAndRoutesMustBeAccepted, for the routes: every `parents` entry Accepted and ResolvedRefs True. */
function acceptedDifferences(cluster: ServedCluster, routes: string[]): string[] {
  const status = gatewayApiStatus(cluster.state, STATUS_TIME)
  return routes.flatMap((route) => {
    const found = status.objects.find((object) => object.kind === 'GRPCRoute' && `${object.namespace}/${object.name}` === route)
    const parents = found && 'parents' in found ? found.parents : []
    if (parents.length === 0) return [`GRPCRoute ${route}: no parents entry`]
    return parents.flatMap((parent) =>
      (['Accepted', 'ResolvedRefs'] as const).flatMap((type) => {
        const condition = parent.conditions.find((written) => written.type === type)
        return condition?.status === 'True'
          ? []
          : [
              `GRPCRoute ${route} at ${parent.parentRef.name}/${parent.parentRef.sectionName ?? ''}: ${type} ${condition ? `${condition.status} (${condition.reason})` : 'absent'}, expected True`,
            ]
      }),
    )
  })
}

/** The suite's comparison: the answering backend (its namespace and name), or the gRPC code UNIMPLEMENTED when none is expected. */
async function answerDifferences(cluster: ServedCluster, expected: ExpectedGrpcAnswer): Promise<string[]> {
  const { method, authority = `127.0.0.1:${cluster.httpPort}`, metadata = {} } = expected.call
  const call = `${method} at ${authority}${Object.keys(metadata).length ? ` ${JSON.stringify(metadata)}` : ''}`
  const answer = await grpcCall(cluster.httpPort, authority, MESSAGE, pathOf(method), lowerCased(metadata)).catch((error: grpc.ServiceError) => error)
  const wanted = expected.backend ? `gateway-conformance-infra/${expected.backend} got ${MESSAGE}` : `code ${grpc.status.UNIMPLEMENTED} (UNIMPLEMENTED)`
  const got = typeof answer === 'string' ? answer : `code ${answer.code} (${grpc.status[answer.code] ?? answer.message})`
  return got === wanted ? [] : [`${call}: ${got}, expected ${wanted}`]
}

/** gRPC metadata keys are lower case on the wire (the suite's Go client lowers them too). */
function lowerCased(metadata: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key.toLowerCase(), value]))
}
