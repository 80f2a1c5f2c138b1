import { z } from 'zod'
import { dnsLabel, objectName } from '../syntax/fields.ts'

/**
 * The API server sends at most `--audit-webhook-batch-max-size` events per batch (400 by
 * default); the default limit leaves room for an operator who raised it, and a caller may pass
 * its own.
 */
export const DEFAULT_MAX_AUDIT_EVENTS = 1000

/**
 * The envelope of what the audit webhook posts: an `audit.k8s.io/v1` `EventList`. Items are
 * checked one by one (`auditEvent`), so that one malformed event does not refuse the batch.
 */
export const auditEventListSchema = (maxEvents = DEFAULT_MAX_AUDIT_EVENTS) =>
  z.object({
    apiVersion: z.literal('audit.k8s.io/v1'),
    kind: z.literal('EventList'),
    items: z.array(z.unknown()).max(maxEvents, `must hold at most ${maxEvents} events; lower --audit-webhook-batch-max-size`),
  })

export const auditEventList = auditEventListSchema()
export type AuditEventList = z.infer<typeof auditEventList>

const shortText = z.string().max(256, 'must be at most 256 characters')

/** The fields of an `audit.k8s.io/v1` `Event` that hapedge uses; the rest (user, sourceIPs, timestamps…) is not read. */
export const auditEvent = z.object({
  auditID: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
  stage: shortText,
  verb: shortText,
  requestURI: z.string().max(8192, 'must be at most 8192 characters'),
  objectRef: z
    .object({
      resource: shortText.optional(),
      subresource: shortText.optional(),
      apiGroup: shortText.optional(),
      apiVersion: shortText.optional(),
      namespace: shortText.optional(),
      name: shortText.optional(),
      uid: shortText.optional(),
      resourceVersion: shortText.optional(),
    })
    .optional(),
  responseStatus: z
    .object({
      code: z.number().int('must be an integer').optional(),
      details: z.object({ uid: shortText.optional() }).optional(),
    })
    .optional(),
  responseObject: z.record(z.string(), z.unknown()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
})

export type AuditEvent = z.infer<typeof auditEvent>

/** An object's name and namespace as Kubernetes admits them: checked before they name a DELETED. */
export const targetRef = z.object({ name: objectName.optional(), namespace: dnsLabel.optional() })

/** The metadata a translation reads from a written or deleted object. */
export const writtenMetadata = z.object({
  name: objectName,
  namespace: dnsLabel.optional(),
  uid: shortText.optional(),
  resourceVersion: shortText.optional(),
  deletionTimestamp: z.string().nullish(),
  finalizers: z.array(z.string()).nullish(),
})

export type WrittenMetadata = z.infer<typeof writtenMetadata>
