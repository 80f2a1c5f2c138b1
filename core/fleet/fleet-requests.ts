import { z } from 'zod'

const generation = z.coerce.number({ error: 'must be a generation number' }).int('must be a whole number').min(1, 'generations start at 1')

/** `POST /v1/clusters/{id}/rollback`: the retained generation whose content to serve. */
export const rollbackRequest = z.strictObject({ generation })

/** `GET /v1/clusters/{id}/generations?limit=&before=`: a page of the history, newest first. */
export const historyQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200, 'must be at most 200').default(50),
  before: generation.optional(),
})

/** `GET /v1/clusters/{id}/diff?from=&to=`: the two generations compared (`to` defaults to the current one). */
export const diffQuery = z.strictObject({ from: generation, to: generation.optional() })
