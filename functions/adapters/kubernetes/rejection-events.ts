import { CoreV1Api, PatchStrategy, setHeaderOptions, type CoreV1Event, type KubeConfig } from '@kubernetes/client-node'
import type { HashText } from '../../../core/hash.ts'
import type { AnnotationWarning } from '../../../core/model/ingress-annotations.ts'
import type { Rejection } from '../../../core/model/rejection.ts'
import type { EventsResult } from '../../../core/ports/cluster-writer.ts'
import { rejectionEvent, warningReports, type EventReason, type RejectionEvent } from '../../../core/status/rejection-event.ts'
import { isConflict, kubeFailure } from './kube-errors.ts'

export interface RejectionEventsOptions {
  /** Names the writer in each Event (`reportingInstance`): the cluster's id. */
  instance: string
  /** Events written per call at most; the rest are counted as skipped. */
  limit: number
  hash: HashText
  now: () => Date
}

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)

/** Records a Warning Event per rejection, then one per warned Ingress: created the first time, its count raised on a repeat. */
export async function recordRejectionEvents(
  kubeConfig: KubeConfig,
  rejected: readonly Rejection[],
  options: RejectionEventsOptions,
  warnings: readonly AnnotationWarning[] = [],
): Promise<EventsResult> {
  const api = kubeConfig.makeApiClient(CoreV1Api)
  const result: EventsResult = { created: 0, repeated: 0, skipped: 0, errors: [] }
  const at = options.now().toISOString()
  const events: RejectionEvent[] = []
  const reports: [Rejection, EventReason][] = [
    ...rejected.map((rejection) => [rejection, 'Rejected'] as [Rejection, EventReason]),
    ...warningReports(warnings).map((report) => [report, 'AnnotationsNotHonoured'] as [Rejection, EventReason]),
  ]
  for (const [rejection, reason] of reports) {
    const event = events.length < options.limit ? rejectionEvent(rejection, at, options.instance, options.hash, reason) : undefined
    if (event) events.push(event)
    else result.skipped++
  }
  for (const event of events) {
    const { name, namespace } = event.metadata
    try {
      // Its times are RFC 3339 strings, which the client's serializer passes through as it would a Date's.
      await api.createNamespacedEvent({ namespace, body: event as unknown as CoreV1Event })
      result.created++
    } catch (error) {
      if (!isConflict(error)) {
        result.errors.push(`Event ${namespace}/${name}: ${kubeFailure(error).message}`)
        continue
      }
      try {
        const existing = await api.readNamespacedEvent({ namespace, name })
        const repeat = { count: (existing.count ?? 1) + 1, lastTimestamp: at, message: event.message }
        await api.patchNamespacedEvent({ namespace, name, body: repeat }, MERGE_PATCH)
        result.repeated++
      } catch (repeatError) {
        result.errors.push(`Event ${namespace}/${name}: ${kubeFailure(repeatError).message}`)
      }
    }
  }
  return result
}
