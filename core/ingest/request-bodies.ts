import { z } from 'zod'
import { watchEvent } from '../incremental/watch-event.ts'

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
    items: z.array(z.record(z.string(), z.unknown())).max(maxObjects, `must hold at most ${maxObjects} objects`),
  })
