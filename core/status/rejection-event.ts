import { clip } from '../clip.ts'
import type { HashText } from '../hash.ts'
import { apiVersionOf, type Kind } from '../kube/objects.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import type { Rejection } from '../model/rejection.ts'
import { STATUS_LIMITS } from '../kube/haproxycfg.ts'

/** A core/v1 Event, the fields hapedge sets (what `kubectl describe ingress` shows under Events). */
export interface RejectionEvent {
  apiVersion: 'v1'
  kind: 'Event'
  metadata: { name: string; namespace: string }
  involvedObject: { apiVersion: string; kind: string; namespace: string; name: string }
  type: 'Warning'
  reason: EventReason
  message: string
  count: number
  firstTimestamp: string
  lastTimestamp: string
  source: { component: string }
  reportingComponent: string
  reportingInstance: string
}

export const EVENT_COMPONENT = 'hapedge'

/** `Rejected`: the object (or part of it) is not served. `AnnotationsNotHonoured`: an Ingress is served without some of its annotations. */
export type EventReason = 'Rejected' | 'AnnotationsNotHonoured'

const NAMESPACED_KINDS = new Set<Kind>(['Ingress', 'Service', 'Secret', 'ConfigMap', 'EndpointSlice'])
const DESCRIBED = /^([A-Za-z]+) ([a-z0-9][a-z0-9.-]{0,252})\/([a-z0-9][a-z0-9.-]{0,252})$/
const MAX_NAME = 253

/**
 * The Warning Event for a rejection, or undefined when its object cannot carry one (a
 * cluster-scoped kind, or a name too malformed to be an object's). The Event's name is the
 * object's name and a hash of the object and the reason, as Kubernetes names Events
 * `<object>.<suffix>`: the same rejection seen again is the same Event, whose count the writer
 * raises instead of adding another.
 */
export function rejectionEvent(
  rejection: Rejection,
  at: string,
  reportingInstance: string,
  hash: HashText,
  reason: EventReason = 'Rejected',
): RejectionEvent | undefined {
  const match = DESCRIBED.exec(rejection.object)
  if (!match) return undefined
  const [, kind, namespace, name] = match as unknown as [string, Kind, string, string]
  if (!NAMESPACED_KINDS.has(kind)) return undefined
  const suffix = hash(`${rejection.object}\n${rejection.reason}`).slice(0, 16)
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name.slice(0, MAX_NAME - suffix.length - 1).replace(/[-.]+$/, '')}.${suffix}`, namespace },
    involvedObject: { apiVersion: apiVersionOf(kind), kind, namespace, name },
    type: 'Warning',
    reason,
    message: clip(rejection.reason, STATUS_LIMITS.text),
    count: 1,
    firstTimestamp: at,
    lastTimestamp: at,
    source: { component: EVENT_COMPONENT },
    reportingComponent: EVENT_COMPONENT,
    reportingInstance,
  }
}

/** An Ingress's warnings as one report per Ingress (`annotation: reason; …`), the message of its `AnnotationsNotHonoured` Event. */
export function warningReports(warnings: readonly AnnotationWarning[]): Rejection[] {
  const byObject = new Map<string, string[]>()
  for (const { object, annotation, reason } of warnings) byObject.set(object, [...(byObject.get(object) ?? []), `${annotation}: ${reason}`])
  return [...byObject].map(([object, notes]) => ({ object, reason: `annotations not honoured (served without them): ${notes.join('; ')}` }))
}
