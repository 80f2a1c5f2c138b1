import { z } from 'zod'

export const generation = z.coerce.number({ error: 'must be a generation number' }).int('must be a whole number').min(1, 'generations start at 1')

/** `POST /v1/clusters/{id}/rollback`: the retained generation whose content to serve. */
export const rollbackRequest = z.strictObject({ generation })

/** `GET /v1/clusters/{id}/generations?limit=&before=`: a page of the history, newest first. */
export const historyQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200, 'must be at most 200').default(50),
  before: generation.optional(),
})

/** `GET /v1/clusters/{id}/diff?from=&to=`: the two generations compared (`to` defaults to the current one). */
export const diffQuery = z.strictObject({ from: generation, to: generation.optional() })

/** A host as the host table keys it (`*.parent` for wildcards, `''` for rules without a host): only the characters a host can hold. */
const hostKey = z
  .string()
  .max(253, 'must be at most 253 characters')
  .regex(/^(\*\.)?[a-z0-9.-]*$/, 'must be a lowercase host name, *.parent, or empty for rules without a host')

/** `GET /v1/clusters/{id}/routes?host=&after=&limit=`: what the cluster serves, host by host. */
export const routesQuery = z.strictObject({
  host: hostKey.optional(),
  after: hostKey.optional(),
  limit: z.coerce.number().int().min(1).max(1000, 'must be at most 1000').default(200),
})
