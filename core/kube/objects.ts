import type { z } from 'zod'
import { issuesFromZod, type Issue } from '../issues.ts'
import { ownValue } from '../own-value.ts'
import { quote } from '../syntax/fields.ts'
import { configMap, type ConfigMap } from './config-map.ts'
import { endpointSlice, type EndpointSlice } from './endpoint-slice.ts'
import { FAIL, FAST_READERS } from './fast-read.ts'
import { ingressClass, type IngressClass } from './ingress-class.ts'
import { ingress, requestedClass, type Ingress } from './ingress.ts'
import { TLS_SECRET_TYPE, tlsSecret, type TlsSecret } from './secret.ts'
import { authSecret, isAuthSecretType, type AuthSecret } from './auth-secret.ts'
import { service, type Service } from './service.ts'
import { gatewayClass, type GatewayClass } from './gateway-class.ts'
import { gateway, type Gateway } from './gateway.ts'
import { httpRoute, type HttpRoute } from './gateway-http-route.ts'
import { referenceGrant, type ReferenceGrant } from './gateway-reference-grant.ts'
import { grpcRoute, type GrpcRoute } from './gateway-grpc-route.ts'
import { namespace, type Namespace } from './namespace.ts'

/** Every kind hapedge reads, trimmed to the fields it uses. */
export type KubeObject =
  | Ingress
  | IngressClass
  | Service
  | EndpointSlice
  | TlsSecret
  | AuthSecret
  | ConfigMap
  | GatewayClass
  | Gateway
  | HttpRoute
  | GrpcRoute
  | ReferenceGrant
  | Namespace
export type Kind = KubeObject['kind']

export interface ObjectRef {
  kind: Kind
  namespace?: string
  name: string
}

const schemas: Record<Kind, { apiVersion: string; schema: z.ZodType<KubeObject> }> = {
  Ingress: { apiVersion: 'networking.k8s.io/v1', schema: ingress },
  IngressClass: { apiVersion: 'networking.k8s.io/v1', schema: ingressClass },
  Service: { apiVersion: 'v1', schema: service },
  EndpointSlice: { apiVersion: 'discovery.k8s.io/v1', schema: endpointSlice },
  Secret: { apiVersion: 'v1', schema: tlsSecret },
  ConfigMap: { apiVersion: 'v1', schema: configMap },
  GatewayClass: { apiVersion: 'gateway.networking.k8s.io/v1', schema: gatewayClass },
  Gateway: { apiVersion: 'gateway.networking.k8s.io/v1', schema: gateway },
  HTTPRoute: { apiVersion: 'gateway.networking.k8s.io/v1', schema: httpRoute },
  GRPCRoute: { apiVersion: 'gateway.networking.k8s.io/v1', schema: grpcRoute },
  ReferenceGrant: { apiVersion: 'gateway.networking.k8s.io/v1beta1', schema: referenceGrant },
  Namespace: { apiVersion: 'v1', schema: namespace },
}

/** The kinds without a namespace. */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set(['IngressClass', 'GatewayClass', 'Namespace'])

/** The API group and version hapedge reads a kind at. */
export function apiVersionOf(kind: Kind): string {
  return schemas[kind].apiVersion
}

export type ReadResult =
  | { status: 'object'; object: KubeObject }
  | { status: 'invalid'; ref: ObjectRef; issues: Issue[]; requestedClass?: string }
  | { status: 'skipped'; reason: string }

/**
 * Reads by object: what the cluster sends is never changed in place (a change is a new object),
 * and a resync's object is read where it is listed, applied, and named in the answer.
 */
const reads = new WeakMap<object, ReadResult>()

/**
 * Reads one Kubernetes object: the kinds hapedge uses are validated and trimmed; anything else
 * is skipped with the reason, and a malformed object of a used kind is `invalid` with its issues.
 */
export function readObject(input: unknown): ReadResult {
  if (!isRecord(input)) return { status: 'skipped', reason: 'not a Kubernetes object' }
  let read = reads.get(input)
  if (!read) reads.set(input, (read = readRecord(input)))
  return read
}

function readRecord(input: Record<string, unknown>): ReadResult {
  const { apiVersion, kind } = input
  const entry = typeof kind === 'string' ? ownValue(schemas, kind) : undefined
  if (!entry) return { status: 'skipped', reason: `${quote(kind)} is not a kind hapedge reads` }
  if (apiVersion !== entry.apiVersion) return { status: 'skipped', reason: `${String(apiVersion)} ${kind} is not read (only ${entry.apiVersion})` }
  const authUsers = kind === 'Secret' && isAuthSecretType(input.type)
  if (kind === 'Secret' && input.type !== TLS_SECRET_TYPE && !authUsers)
    return { status: 'skipped', reason: `Secret of type ${String(input.type)} is not read` }
  const fast = authUsers ? FAIL : (FAST_READERS[kind as Kind]?.(input) ?? FAIL)
  if (fast !== FAIL) return { status: 'object', object: fast as KubeObject }
  // A Secret that may hold users (auth-secret.ts) is read trimmed to them.
  const result = (authUsers ? authSecret : entry.schema).safeParse(input)
  // A Secret of such a type without a key of users is any other Secret: not read, as the audit path does (audit-events.ts).
  if (result.success && authUsers && Object.keys((result.data as AuthSecret).data).length === 0)
    return { status: 'skipped', reason: `Secret of type ${String(input.type)} without users is not read` }
  if (result.success) return { status: 'object', object: result.data }
  const invalid = { status: 'invalid', ref: refOf(kind as Kind, input.metadata), issues: issuesFromZod(result.error) } as const
  return kind === 'Ingress' ? { ...invalid, requestedClass: requestedClass(input) } : invalid
}

function refOf(kind: Kind, metadata: unknown): ObjectRef {
  const fields = isRecord(metadata) ? metadata : {}
  // A malformed name is shown quoted (control characters escaped), so it can never forge a line of output.
  const text = (value: unknown) => (typeof value !== 'string' ? '?' : /^[a-z0-9.-]{1,253}$/.test(value) ? value : quote(value))
  return CLUSTER_SCOPED_KINDS.has(kind) ? { kind, name: text(fields.name) } : { kind, namespace: text(fields.namespace), name: text(fields.name) }
}

export function objectRef(object: KubeObject): ObjectRef {
  const { name } = object.metadata
  return 'namespace' in object.metadata ? { kind: object.kind, namespace: object.metadata.namespace, name } : { kind: object.kind, name }
}

/** `Ingress/shop/web`: the identity of an object inside one cluster. */
export function objectKey(ref: ObjectRef): string {
  // Joined flat, not concatenated: a key is kept as long as its object, and a concatenation is kept as a rope of
  // a node per part. With hostEntry's, that was 157,000 rope nodes (5 MB) in a 20,000-Ingress state, now 1.9 MB of text.
  return ref.namespace === undefined ? [ref.kind, ref.name].join('/') : [ref.kind, ref.namespace, ref.name].join('/')
}

/** The object of a key `Kind/ns/name` (or `Kind/name`), as objectKey made it. */
export function refOfKey(key: string): ObjectRef {
  const [kind, ...rest] = key.split('/') as [Kind, ...string[]]
  return rest.length === 2 ? { kind, namespace: rest[0], name: rest[1]! } : { kind, name: rest[0]! }
}

/** `Ingress shop/web`: how an object is named to people. */
export function describeRef(ref: ObjectRef): string {
  return ref.namespace === undefined ? `${ref.kind} ${ref.name}` : `${ref.kind} ${ref.namespace}/${ref.name}`
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
