import { afterAll, beforeAll, describe, it } from 'vitest'
import type { GatewayApiStatus } from '../../core/kube/gateway-status.ts'
import type { Rejection } from '../../core/model/rejection.ts'
import { gatewayApiStatus } from '../../core/gateway-status/gateway-api-status.ts'
import { ECHO_SET_HEADER, startConformanceEcho, type EchoServer } from '../support/conformance-echo.ts'
import { fixtureCertificate } from '../support/fixtures.ts'
import { gatewayClass } from '../support/gateway-objects.ts'
import { tlsSecret } from '../support/objects.ts'
import { answerDifferences, describeRequest, echoOf, expectVerdict } from './conformance-answers.ts'
import { echoEndpoints, objectName, readManifest, type ManifestObject } from './conformance-manifests.ts'
import { CASES, UNREPORTED, type ConformanceCase, type ConformanceRequest, type ExpectedCondition } from './gateway-conformance-cases.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'
import { eventually } from '../support/eventually.ts'

/**
 * The Gateway API's HTTPRoute conformance cases (gateway-conformance-cases.ts), each through the
 * real rendering and the real HAProxy: the suite's base manifests and the case's own, every
 * Service's pods an echo on loopback answering as the suite's echo does. A case passes when every
 * answer is the one its Go test expects; PASSING lists those that do, and a case that does not
 * must be one hapedge reports (a route or Gateway of the case rejected, with the field and why),
 * or one UNREPORTED names with what hapedge does instead.
 */

const CLASS = 'hapedge'
/** The conditions' transition time: any; the suite reads type, status and reason. */
const STATUS_TIME = '2024-01-01T00:00:00Z'
const DISTRIBUTION_REQUESTS = 500
const DISTRIBUTION_CONCURRENCY = 10
/** The suite's tolerance, and its ten tries before it calls a distribution wrong. */
const DISTRIBUTION_TOLERANCE = 0.05
const DISTRIBUTION_TRIES = 10
/** How long a mirror's echo is waited for, as the suite waits for its pod's log. */
const MIRROR_WAIT_MS = 10_000
/** The listener ports besides 80 and 443 the suite's cases name (HTTPRouteListenerPortMatching): the cluster serves them on sockets of their own, as an operator would allow them. */
const OWN_PORTS = [8080, 8090].map((port) => ({ port, protocol: 'HTTP' as const }))

interface CaseResult {
  name: string
  differences: string[]
  /** What hapedge reports on the case's objects and the Gateways its routes name: its rejections, and the routes' False conditions. */
  reports: Rejection[]
}

describe('the Gateway API conformance cases for HTTPRoute, through HAProxy', () => {
  const echoes: EchoServer[] = []
  /** Each Service's echo by `namespace/name`, for the cases that ask whether a copy reached one (RequestMirror). */
  const echoesByService = new Map<string, EchoServer>()
  let base: unknown[] = []
  const results: CaseResult[] = []

  beforeAll(async () => {
    const manifest = await readManifest('base.yaml', CLASS)
    const services = manifest.filter((object) => object.kind === 'Service')
    for (const service of services) {
      const namespace = service.metadata.namespace ?? 'default'
      echoes.push(await startConformanceEcho(service.metadata.name, namespace))
      echoesByService.set(`${namespace}/${service.metadata.name}`, echoes.at(-1)!)
    }
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    base = [
      gatewayClass(CLASS),
      // The suite creates this Secret before its tests (a self-signed certificate) for the base HTTPS Gateway.
      tlsSecret('tls-validity-checks-certificate', certPem, keyPem, 'gateway-conformance-infra'),
      ...manifest,
      ...services.map((service, index) => echoEndpoints(service, echoes[index]!)),
    ]
  })

  afterAll(async () => {
    await Promise.all(echoes.map((echo) => echo.close()))
    const passed = results.filter((result) => result.differences.length === 0)
    const lines = [`${passed.length} of ${CASES.length} ported cases pass`]
    for (const result of results.filter((result) => result.differences.length > 0).sort((a, b) => a.name.localeCompare(b.name)))
      lines.push(
        `  ${result.name}: ${result.differences[0]}${result.differences.length > 1 ? ` (and ${result.differences.length - 1} more)` : ''}`,
        ...result.reports.map((report) => `      ${report.object}: ${report.reason}`),
        ...(UNREPORTED.has(result.name) ? [`      not reported: ${UNREPORTED.get(result.name)}`] : []),
      )
    console.log(lines.join('\n'))
  })

  it.concurrent.each(CASES.map((conformanceCase) => [conformanceCase.name, conformanceCase] as const))('%s', async (name, conformanceCase) => {
    const result = await runCase(conformanceCase, base, echoesByService)
    results.push(result)
    expectVerdict(name, result.differences, result.reports)
  })
})

async function runCase(conformanceCase: ConformanceCase, base: unknown[], echoes: ReadonlyMap<string, EchoServer>): Promise<CaseResult> {
  const objects = await readManifest(conformanceCase.manifest, CLASS)
  const cluster = await serveCluster([...base, ...objects], { ownPorts: OWN_PORTS })
  try {
    const differences: string[] = []
    for (const answer of conformanceCase.answers) {
      const response = await send(cluster, answer.request).catch((error: Error) => error)
      differences.push(
        ...(response instanceof Error
          ? [`${describeRequest(answer.request)}: no HTTP answer (${response.message.split('\n')[0]})`]
          : answerDifferences(answer, response, answer.request.host ?? gatewayAddress(cluster))),
      )
      for (const mirror of answer.mirroredTo ?? []) differences.push(...(await mirrorDifferences(answer.request, mirror, echoes)))
    }
    const status = gatewayApiStatus(cluster.state, STATUS_TIME)
    differences.push(...conditionDifferences(conformanceCase.conditions ?? [], status))
    if (conformanceCase.distribution && differences.length === 0) differences.push(...(await distributionDifferences(cluster, conformanceCase.distribution)))
    return { name: conformanceCase.name, differences, reports: reportsOf(cluster, objects, status) }
  } finally {
    await cluster.stop()
  }
}

/** A route's conditions as the suite reads them: any of its `parents` entries for the Gateway, with the type, status and (when given) reason. */
function conditionDifferences(conditions: ExpectedCondition[], status: GatewayApiStatus): string[] {
  return conditions.flatMap((condition) => {
    const [namespace, name] = condition.route.split('/')
    const route = status.objects.find((object) => object.kind === 'HTTPRoute' && object.namespace === namespace && object.name === name)
    const parents =
      route && 'parents' in route
        ? route.parents.filter((parent) => `${parent.parentRef.namespace ?? namespace}/${parent.parentRef.name}` === condition.gateway)
        : []
    const written = parents.flatMap((parent) => parent.conditions.filter((written) => written.type === condition.type))
    const wanted = `${condition.type} ${condition.status}${condition.reason ? ` (${condition.reason})` : ''}`
    if (written.some((found) => found.status === condition.status && (!condition.reason || found.reason === condition.reason))) return []
    const found = written.map((found) => `${found.type} ${found.status} (${found.reason}: ${found.message})`).join('; ') || 'none'
    return [`HTTPRoute ${condition.route} at Gateway ${condition.gateway}: ${wanted} expected, status says ${found}`]
  })
}

/** The suite's ExpectMirroredRequest: the mirror's echo is sent the request's path, soon (the copy goes its own way, after the answer). */
async function mirrorDifferences(request: ConformanceRequest, mirror: { backend: string; namespace: string }, echoes: ReadonlyMap<string, EchoServer>) {
  const echo = echoes.get(`${mirror.namespace}/${mirror.backend}`)
  const copied = echo && (await eventually(`a copy at ${mirror.backend}`, () => echo.received(request.path), MIRROR_WAIT_MS).catch(() => false))
  return copied ? [] : [`${describeRequest(request)}: no copy reached ${mirror.backend} within ${MIRROR_WAIT_MS} ms`]
}

/** Where the suite sends a request without a host: the Gateway's address, which hapedge's binds are. */
function gatewayAddress(cluster: ServedCluster): string {
  return `127.0.0.1:${cluster.httpPort}`
}

function send(cluster: ServedCluster, request: ConformanceRequest) {
  const echoSets = Object.entries(request.backendSetsHeaders ?? {}).map(([name, value]) => `${name}:${value}`)
  const init = {
    method: request.method ?? 'GET',
    headers: { ...request.headers, ...(echoSets.length ? { [ECHO_SET_HEADER]: echoSets.join(',') } : {}) },
  }
  const host = request.host ?? gatewayAddress(cluster)
  return request.sni ? cluster.https(host, request.path, request.sni, init) : cluster.get(host, request.path, init)
}

/** HTTPRouteWeight's check: each backend's share of the requests within the tolerance, and no other backend answering. */
async function distributionDifferences(cluster: ServedCluster, distribution: NonNullable<ConformanceCase['distribution']>): Promise<string[]> {
  let differences: string[] = []
  for (let tried = 0; tried < DISTRIBUTION_TRIES; tried++) {
    const counts = new Map<string, number>()
    for (let sent = 0; sent < DISTRIBUTION_REQUESTS; sent += DISTRIBUTION_CONCURRENCY) {
      const answers = await Promise.all(Array.from({ length: DISTRIBUTION_CONCURRENCY }, () => send(cluster, distribution.request)))
      for (const answer of answers) {
        const backend = Object.keys(distribution.shares).find((name) => echoOf(answer)?.pod.startsWith(name)) ?? `HTTP ${answer.status}`
        counts.set(backend, (counts.get(backend) ?? 0) + 1)
      }
    }
    differences = [...new Set([...counts.keys(), ...Object.keys(distribution.shares)])].flatMap((backend) => {
      const share = (counts.get(backend) ?? 0) / DISTRIBUTION_REQUESTS
      const wanted = distribution.shares[backend] ?? 0
      return Math.abs(share - wanted) > DISTRIBUTION_TOLERANCE || (wanted === 0 && share > 0)
        ? [`${describeRequest(distribution.request)}: ${backend} took ${share.toFixed(3)} of the requests, expected ${wanted}`]
        : []
    })
    if (differences.length === 0) return []
  }
  return differences
}

/** The reports on the case's own objects and on the Gateways its routes attach to. */
function reportsOf(cluster: ServedCluster, objects: ManifestObject[], status: GatewayApiStatus): Rejection[] {
  const names = new Set(objects.map(objectName))
  for (const object of objects)
    for (const parent of (object.kind === 'HTTPRoute' ? object.spec?.parentRefs : undefined) ?? [])
      names.add(`Gateway ${parent.namespace ?? object.metadata.namespace}/${parent.name}`)
  const falseConditions = status.objects.flatMap((object) =>
    'parents' in object
      ? object.parents.flatMap((parent) =>
          parent.conditions
            .filter((condition) => condition.status === 'False')
            .map((condition) => ({
              object: `${object.kind} ${object.namespace}/${object.name}`,
              reason: `status.parents (${parent.parentRef.name}): ${condition.type} False, ${condition.reason}: ${condition.message}`,
            })),
        )
      : [],
  )
  return [...cluster.model.rejections, ...falseConditions].filter((report) => names.has(report.object))
}
