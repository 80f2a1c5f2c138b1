import { z } from 'zod'
import { watchEvent } from '../incremental/watch-event.ts'
import { isRecord } from '../kube/objects.ts'

/** `POST …/events`: watch events as the API server streams them, at most `maxEvents` per request. */
export const eventsBody = (maxEvents: number) =>
  z.strictObject({
    events: z.array(watchEvent).min(1, 'must hold at least one event').max(maxEvents, `must hold at most ${maxEvents} events; send more requests`),
  })

/** `PUT …/objects`: a `v1` `List` of every object hapedge reads, as `kubectl get -o json` or a LIST call gives it. */
export const objectList = (maxObjects: number) =>
  z.object({
    apiVersion: z.literal('v1'),
    kind: z.string().regex(/^(\w+)?List$/, 'must be a List (v1 List or a kind-specific one such as IngressList)'),
    metadata: z.object({ resourceVersion: z.string().optional() }).optional(),
    // Each item as parsed, checked only to be an object (the engine reads it, and refuses it alone if malformed): z.record
    // copied each of a resync's 40,000 items and checked each of their keys, a tenth of a second of CPU per list for nothing.
    items: z
      .array(z.custom<Record<string, unknown>>(isRecord, 'must be a Kubernetes object (a JSON object)'))
      .max(maxObjects, `must hold at most ${maxObjects} objects`),
  })
