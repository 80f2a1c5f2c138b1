import type { Context, MiddlewareHandler } from 'hono'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import { claimedCluster, sameDigest } from '../../../core/registry/tokens.ts'
import type { AppEnv } from '../app-env.ts'
import type { RequestTurn } from '../services/turns.ts'
import { HttpError } from './http-error.ts'

/** What a request carries through its routes: its cluster's record (cluster routes), and its place in the Turns (every request). */
export type AppVariables = { record: ClusterRecord; turn: RequestTurn }
type AppContext = Context<{ Variables: AppVariables }>

function bearer(c: AppContext): string {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match) throw new HttpError(401, 'a bearer token is required (Authorization: Bearer <token>)')
  return match[1]!
}

/** Whether `token` is the admin token (compared by digest, in constant time). */
export const isAdmin = (env: AppEnv, token: string) => sameDigest(env.hash(token), env.adminTokenSha256)

/** Whether the request shows the admin token: false when it shows none, 401 when it shows another. */
export function showsAdmin(env: AppEnv, c: AppContext): boolean {
  if (c.req.header('authorization') === undefined) return false
  if (!isAdmin(env, bearer(c))) throw new HttpError(401, 'not the admin token')
  return true
}

/** Admin routes: the admin token only. */
export function requireAdmin(env: AppEnv): MiddlewareHandler<{ Variables: AppVariables }> {
  return async (c, next) => {
    if (!isAdmin(env, bearer(c))) throw new HttpError(401, 'the admin token is required')
    await next()
  }
}

/**
 * A cluster's routes: its own token (or the admin's), while the cluster is not removed. Another cluster's valid token is 403;
 * anything else is 401, and an unknown cluster answers 401 too, so ids cannot be probed.
 */
export function requireCluster(env: AppEnv): MiddlewareHandler<{ Variables: AppVariables }> {
  return async (c, next) => {
    const token = bearer(c)
    const id = c.req.param('id') ?? ''
    const record = await env.registry.get(id).catch(() => undefined)
    // A removed cluster answers as an unknown one, to the admin too: its data is only waiting to be purged.
    if (record && record.removedAt === undefined && (isAdmin(env, token) || (claimedCluster(token) === id && env.registry.authenticates(record, token)))) {
      c.set('record', record)
      return next()
    }
    const claimed = claimedCluster(token)
    if (claimed !== undefined && claimed !== id) {
      const owner = await env.registry.get(claimed).catch(() => undefined)
      if (owner && env.registry.authenticates(owner, token)) throw new HttpError(403, `this token is for cluster ${claimed}, not ${id}`)
    }
    throw new HttpError(401, `not a valid token for cluster ${id}`)
  }
}
