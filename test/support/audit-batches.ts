/**
 * Audit events shaped as kube-apiserver's webhook backend posts them (audit.k8s.io/v1 Event in
 * an EventList, at level RequestResponse): the request line, the user, the source IPs and the
 * authorizer's annotations, the response status copied from a Status answer, and fields the Go
 * types omit when empty left out, as on the wire.
 */

type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic'

export interface AuditSpec {
  verb: string
  resource: string
  group?: string
  namespace?: string
  name?: string
  subresource?: string
  code?: number
  stage?: Stage
  auditID?: string
  /** Appended to the request path; kubectl's defaults per verb when absent. */
  query?: string
  requestObject?: unknown
  /** The answer the policy recorded; `null` for none (a level below RequestResponse, or a truncated event). */
  responseObject?: Record<string, unknown> | null
  annotations?: Record<string, string>
}

const KUBECTL_QUERY: Record<string, string> = {
  create: '?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
  update: '?fieldManager=kubectl-edit&fieldValidation=Strict',
  patch: '?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
}

const REASONS: Record<number, string> = { 404: 'NotFound', 409: 'AlreadyExists', 422: 'Invalid' }

let sequence = 0

/** A fresh audit ID, a UUID as the API server makes them (deterministic here). */
export const nextAuditID = () => `5f0c${String(++sequence).padStart(4, '0')}-9b1e-4c5a-8d1f-3a7e2b9c4d10`

export function auditEvent(spec: AuditSpec): Record<string, unknown> {
  const group = spec.group ?? ''
  const stage = spec.stage ?? 'ResponseComplete'
  const code = spec.code ?? (spec.verb === 'create' ? 201 : 200)
  const path = [
    group ? `/apis/${group}/v1` : '/api/v1',
    spec.namespace && `namespaces/${spec.namespace}`,
    spec.resource,
    spec.verb !== 'create' && spec.name,
    spec.subresource,
  ]
  const completed = stage === 'ResponseComplete' || stage === 'Panic'
  const response = spec.responseObject === undefined ? defaultResponse(spec, code) : spec.responseObject
  const event = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: spec.auditID ?? nextAuditID(),
    stage,
    requestURI: path.filter(Boolean).join('/') + (spec.query ?? KUBECTL_QUERY[spec.verb] ?? ''),
    verb: spec.verb,
    user: { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] },
    sourceIPs: ['172.18.0.1'],
    userAgent: 'kubectl/v1.30.2 (linux/amd64) kubernetes/3968350',
    objectRef: {
      resource: spec.resource,
      namespace: spec.namespace,
      name: spec.name,
      apiGroup: group || undefined,
      apiVersion: 'v1',
      subresource: spec.subresource,
    },
    responseStatus: completed ? responseStatus(code, response) : undefined,
    requestObject: spec.requestObject,
    responseObject: completed ? (response ?? undefined) : undefined,
    requestReceivedTimestamp: '2024-05-01T10:00:00.104322Z',
    stageTimestamp: completed ? '2024-05-01T10:00:00.118716Z' : '2024-05-01T10:00:00.104322Z',
    annotations: spec.annotations ?? {
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason':
        'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins"',
    },
  }
  return JSON.parse(JSON.stringify(event))
}

export function eventList(...items: unknown[]) {
  return { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items }
}

/** What a successful delete answers for most resources: a Status naming the object by uid (`kind` holds the resource). */
export function deletedStatus(group: string, resource: string, name: string, uid: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group, kind: resource, uid } }
}

/** An object as the API server answers a write: with uid, resourceVersion and creation time. */
export function served<T extends { metadata: Record<string, unknown> }>(object: T, resourceVersion: string, uid = `uid-${String(object.metadata.name)}`) {
  return { ...object, metadata: { creationTimestamp: '2024-01-01T00:00:00Z', ...object.metadata, uid, resourceVersion } }
}

function defaultResponse(spec: AuditSpec, code: number): Record<string, unknown> | undefined {
  if (code >= 200 && code < 300) return undefined
  const group = spec.group ?? ''
  const qualified = group ? `${spec.resource}.${group}` : spec.resource
  const message =
    code === 404
      ? `${qualified} "${spec.name}" not found`
      : code === 409
        ? `${qualified} "${spec.name}" already exists`
        : `${spec.resource} "${spec.name}" is invalid`
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: REASONS[code],
    details: { name: spec.name, group, kind: spec.resource },
    code,
  }
}

/** The response status as the audit layer records it: code only on success, a Status answer's fields copied. */
function responseStatus(code: number, response: Record<string, unknown> | null | undefined) {
  if (response?.kind !== 'Status') return { metadata: {}, code }
  const { status, message, reason, details } = response
  return { metadata: {}, status, message, reason, details, code }
}
