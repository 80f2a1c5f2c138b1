import type { WatchEvent } from '../incremental/watch-event.ts'
import { issuesFromZod, prefixIssues, type Issue } from '../issues.ts'
import { quote } from '../syntax/fields.ts'
import { isRecord, objectKey } from '../kube/objects.ts'
import { TLS_SECRET_TYPE } from '../kube/secret.ts'
import { isAuthSecretType, trimmedData } from '../kube/auth-secret.ts'
import { auditEvent, targetRef, writtenMetadata, type AuditEvent } from './audit-event-list.ts'
import { auditedResource, identityObject, type AuditedResource } from './audited-resources.ts'
import { orderPerObject, type Ordered } from './order-per-object.ts'

export { auditEventList, auditEventListSchema, DEFAULT_MAX_AUDIT_EVENTS, type AuditEventList } from './audit-event-list.ts'

export interface AuditChange {
  auditID: string
  stage: string
  event: WatchEvent
}

export interface AuditTranslation {
  events: AuditChange[]
  /** Events that are not a successful write to an object hapedge reads (and repeats of one already seen). */
  skipped: number
  problems: { path: string; message: string }[]
}

type Outcome = 'ignored' | { changes: Ordered<WatchEvent>[]; issues: Issue[] }

interface Identity {
  name: string
  namespace?: string | undefined
  resourceVersion?: string | undefined
  uid?: string | undefined
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection'])

/**
 * Translates an audit webhook batch into the watch events it stands for: successful writes to
 * the objects hapedge reads, each once (`auditID` + `stage`), ordered per object by
 * resourceVersion within the batch (never against other batches: see orderPerObject). A
 * malformed event is reported with its path and the others still apply.
 */
export function watchEventsFromAudit(list: { readonly items: readonly unknown[] }): AuditTranslation {
  const changes: Ordered<AuditChange>[] = []
  const problems: AuditTranslation['problems'] = []
  const seen = new Set<string>()
  let ignored = 0
  list.items.forEach((input, index) => {
    const report = (issues: Issue[]) => problems.push(...prefixIssues(['items', index], issues).map(({ path, message }) => ({ path, message })))
    const parsed = auditEvent.safeParse(input)
    if (!parsed.success) return void report(issuesFromZod(parsed.error))
    const item = parsed.data
    const once = `${item.stage}/${item.auditID}`
    if (seen.has(once)) return void ignored++
    seen.add(once)
    const outcome = translate(item)
    if (outcome === 'ignored') return void ignored++
    report(outcome.issues)
    for (const change of outcome.changes) changes.push({ ...change, value: { auditID: item.auditID, stage: item.stage, event: change.value } })
  })
  return { events: orderPerObject(changes), skipped: ignored, problems }
}

function translate(item: AuditEvent): Outcome {
  const ref = item.objectRef
  if (item.stage !== 'ResponseComplete' || !WRITE_VERBS.has(item.verb) || !ref) return 'ignored'
  const resource = auditedResource(ref)
  if (!resource) return 'ignored'
  const code = item.responseStatus?.code
  if (code === undefined) return failure('responseStatus.code', 'missing: cannot tell whether the write succeeded')
  if (code < 200 || code > 299 || isDryRun(item.requestURI)) return 'ignored'
  const target = targetRef.safeParse({ name: ref.name, namespace: ref.namespace })
  if (!target.success) return { changes: [], issues: prefixIssues(['objectRef'], issuesFromZod(target.error)) }
  if (item.verb === 'delete') return fromDelete(item, resource, target.data)
  if (item.verb === 'deletecollection') return fromDeleteCollection(item, resource)
  return fromWrite(item, resource)
}

function fromWrite(item: AuditEvent, resource: AuditedResource): Outcome {
  const object = item.responseObject
  if (!object) return failure('responseObject', missingBody(item, resource))
  return afterWrite(object, resource, item.verb)
}

function fromDelete(item: AuditEvent, resource: AuditedResource, target: { name?: string | undefined; namespace?: string | undefined }): Outcome {
  const object = item.responseObject
  // Some stores answer with the object: the deleted one (at the deletion's resourceVersion), or the one kept while finalizers are pending.
  if (object?.kind === resource.kind) return afterWrite(object, resource, item.verb)
  // Most answer a Status that names the object by uid only; with no body at all (a policy below RequestResponse) the delete still stands.
  if (!target.name) return failure('objectRef.name', 'missing: a delete must name its object')
  if (resource.namespaced && !target.namespace) return failure('objectRef.namespace', `missing: ${resource.kind} is namespaced`)
  const details = isRecord(object?.details) ? object.details : {}
  const uid = typeof details.uid === 'string' ? details.uid : item.responseStatus?.details?.uid
  return { changes: [deleted(resource, { name: target.name, namespace: target.namespace, uid }, false)], issues: [] }
}

/**
 * A deletecollection answers the List of the objects it deleted, so each becomes a DELETED. An
 * item with finalizers was only marked for deletion; the update that removes its last finalizer
 * deletes it, and arrives as its own event.
 */
function fromDeleteCollection(item: AuditEvent, resource: AuditedResource): Outcome {
  const list = item.responseObject
  if (!list) return failure('responseObject', missingBody(item, resource))
  if (list.kind !== `${resource.kind}List` || !Array.isArray(list.items))
    return failure('responseObject.kind', `must be the ${resource.kind}List of the deleted objects, not ${quote(list.kind)}`)
  const outcome = { changes: [] as Ordered<WatchEvent>[], issues: [] as Issue[] }
  list.items.forEach((entry: unknown, index) => {
    const read = readIdentity(isRecord(entry) ? entry.metadata : undefined, resource, ['responseObject', 'items', index, 'metadata'])
    if ('issues' in read) return void outcome.issues.push(...read.issues)
    // The listed resourceVersion is from before the deletion: it orders the change but must not stamp it.
    if (!read.finalizers) outcome.changes.push(deleted(resource, read.identity, false))
  })
  return outcome
}

/** The object a write or a delete answered with, as the change it makes. */
function afterWrite(object: Record<string, unknown>, resource: AuditedResource, verb: string): Outcome {
  if (object.kind !== resource.kind) return failure('responseObject.kind', `must be ${resource.kind}, not ${quote(object.kind)}`)
  if (object.apiVersion !== resource.apiVersion) {
    return failure(
      'responseObject.apiVersion',
      `${quote(object.apiVersion)} is not read (only ${resource.apiVersion}); the next full resync brings this object`,
    )
  }
  const read = readIdentity(object.metadata, resource, ['responseObject', 'metadata'])
  if ('issues' in read) return { changes: [], issues: read.issues }
  const { identity, finalizers, deleting } = read
  // A delete leaves the object while finalizers are pending; an update that empties the finalizers of an object being deleted deletes it.
  if (verb === 'delete' && !finalizers) return { changes: [deleted(resource, identity, true)], issues: [] }
  if (verb !== 'delete' && deleting && !finalizers) return { changes: [deleted(resource, identity, false)], issues: [] }
  // Only TLS Secrets and Secrets of users are read: any other is removed by name, and its data goes no further.
  const kept = resource.kind === 'Secret' && object.type !== TLS_SECRET_TYPE ? usersOf(object) : object
  if (!kept) return { changes: [deleted(resource, identity, true)], issues: [] }
  const change: Ordered<WatchEvent> = { value: { type: 'MODIFIED', object: kept }, objectKey: keyOf(resource, identity), deleted: false, ...versions(identity) }
  return { changes: [change], issues: [] }
}

/**
 * A Secret that may hold users (auth-secret.ts) with only the keys that may (an htpasswd file, a
 * value shaped like a password hash); undefined for any other Secret, or one with none of those keys.
 */
function usersOf(secret: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!isAuthSecretType(secret.type) || !isRecord(secret.data)) return undefined
  const data = trimmedData(Object.fromEntries(Object.entries(secret.data).filter((entry): entry is [string, string] => typeof entry[1] === 'string')))
  return Object.keys(data).length > 0 ? { ...secret, data } : undefined
}

type ReadIdentity = { issues: Issue[] } | { identity: Identity; finalizers: boolean; deleting: boolean }

function readIdentity(metadata: unknown, resource: AuditedResource, path: PropertyKey[]): ReadIdentity {
  const parsed = writtenMetadata.safeParse(metadata)
  if (!parsed.success) return { issues: prefixIssues(path, issuesFromZod(parsed.error)) }
  const { name, namespace, resourceVersion, uid, finalizers, deletionTimestamp } = parsed.data
  if (resource.namespaced && !namespace) return { issues: prefixIssues([...path, 'namespace'], [issue('', `missing: ${resource.kind} is namespaced`)]) }
  return { identity: { name, namespace, resourceVersion, uid }, finalizers: (finalizers?.length ?? 0) > 0, deleting: Boolean(deletionTimestamp) }
}

/**
 * A DELETED that names the object and nothing else. Its resourceVersion is stamped only when it
 * is the deletion's own (or, for a Secret hapedge does not read, the write's): an older one is a
 * write's, and the engine's tombstone keeps the last write's version by itself.
 */
function deleted(resource: AuditedResource, identity: Identity, stamped: boolean): Ordered<WatchEvent> {
  const object = identityObject(resource, identity.name, identity.namespace, stamped ? identity.resourceVersion : undefined)
  return { value: { type: 'DELETED', object }, objectKey: keyOf(resource, identity), deleted: true, ...versions(identity) }
}

const versions = ({ resourceVersion, uid }: Identity) => ({ version: resourceVersion, uid })

const keyOf = (resource: AuditedResource, { name, namespace }: Identity) =>
  objectKey(resource.namespaced ? { kind: resource.kind, namespace, name } : { kind: resource.kind, name })

/** A dry run (`?dryRun=All`) is audited like a write but changes nothing; the event has no other mark of it. */
function isDryRun(requestURI: string): boolean {
  const query = requestURI.indexOf('?')
  return query >= 0 && new URLSearchParams(requestURI.slice(query + 1)).has('dryRun')
}

function missingBody(item: AuditEvent, resource: AuditedResource): string {
  if (item.annotations?.['audit.k8s.io/truncated'] === 'true') {
    return "missing: the API server dropped this event's bodies as too large (--audit-webhook-truncate-max-event-size); raise the limit, or wait for the next full resync"
  }
  const name = resource.group ? `${resource.resource}.${resource.group}` : resource.resource
  return `missing: the audit policy must log ${name} at level RequestResponse for hapedge to see the written object (infra/audit/policy.yaml)`
}

const issue = (path: string, message: string): Issue => ({ code: 'audit_event', path, message })

const failure = (path: string, message: string): Outcome => ({ changes: [], issues: [issue(path, message)] })
