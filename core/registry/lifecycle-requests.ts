import { z } from 'zod'

const DAY = 24 * 3600

/** `POST /v1/clusters/{id}/token`: how long the token being replaced stays valid (0 revokes it at once, e.g. after a leak). */
export const tokenRotation = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * DAY, 'must be at most 7 days (604800)')
    .default(3600),
})

/** `DELETE /v1/clusters/{id}`: how long the cluster's data is kept before garbage collection deletes it. */
export const clusterRemoval = z.strictObject({
  graceSeconds: z
    .number()
    .int()
    .min(0)
    .max(90 * DAY, 'must be at most 90 days (7776000)')
    .default(7 * DAY),
})
