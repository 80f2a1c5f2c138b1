import { readFile } from 'node:fs/promises'
import { parseAllDocuments } from 'yaml'
import { apiVersionOf, type Kind } from '../../core/kube/objects.ts'
import { fixturePath } from '../support/fixtures.ts'
import { endpointSlice } from '../support/objects.ts'

export interface ManifestObject {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; creationTimestamp?: string }
  spec?: Record<string, any>
}

const GATEWAY_API_GROUP = 'gateway.networking.k8s.io/'
const GATEWAY_API_KINDS: ReadonlySet<string> = new Set(['GatewayClass', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'ReferenceGrant'])
const CREATED = '2024-01-01T00:00:00Z'

/**
 * A manifest's objects as the API server would list them to hapedge: the suite's
 * `{GATEWAY_CLASS_NAME}` filled in, a creation time, and Gateway API objects at the version hapedge
 * lists (the API server serves a stored object at every version its CRD serves, and the
 * conformance manifests write `v1beta1` or `v1` as their release had them).
 */
export async function readManifest(
  /** A file of test/fixtures/gateway-conformance (SOURCES.tsv says where each comes from). */
  file: string,
  gatewayClassName: string,
): Promise<ManifestObject[]> {
  const text = (await readFile(fixturePath(`gateway-conformance/${file}`), 'utf8')).replaceAll('{GATEWAY_CLASS_NAME}', gatewayClassName)
  return parseAllDocuments(text)
    .map((document) => document.toJS() as ManifestObject | null)
    .filter((object): object is ManifestObject => object !== null)
    .map((object) => ({
      ...object,
      apiVersion: object.apiVersion.startsWith(GATEWAY_API_GROUP) && GATEWAY_API_KINDS.has(object.kind) ? apiVersionOf(object.kind as Kind) : object.apiVersion,
      metadata: { creationTimestamp: CREATED, ...object.metadata },
    }))
}

/** `Kind namespace/name`, as hapedge names an object in its reports. */
export function objectName(object: ManifestObject): string {
  return `${object.kind} ${object.metadata.namespace ?? 'default'}/${object.metadata.name}`
}

/**
 * The EndpointSlice a Service's Deployment would have: one ready endpoint, the echo standing for
 * its pods, behind every port the Service names.
 */
export function echoEndpoints(service: ManifestObject, echo: { host: string; port: number }) {
  const ports = (service.spec?.ports ?? []) as { name?: string }[]
  return endpointSlice(
    service.metadata.name,
    [{ address: echo.host, ready: true }],
    ports.map((port) => ({ name: port.name, port: echo.port })),
    { namespace: service.metadata.namespace },
  )
}
