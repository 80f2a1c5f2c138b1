import { Hono } from 'hono'
import { publicRecord } from '../../../core/registry/cluster-record.ts'
import { clusterRemoval, tokenRotation } from '../../../core/registry/lifecycle-requests.ts'
import type { VersionedRecord } from '../../../core/registry/registry.ts'
import { settingsPatch } from '../../../core/registry/settings-patch.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../auth.ts'
import { HttpError } from '../http-error.ts'
import { readJson, readOptionalJson } from '../read-body.ts'

const BODY_BYTES = 64 * 1024

/**
 * One cluster's record, for the admin: read it, change its settings, rotate its token, remove it.
 * Each change is a compare-and-swap on the record as read, answered 409 when another change won.
 * Mounted before the clusters' own routes, so their token check never runs for these.
 */
export function clusterAdminRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  const admin = requireAdmin(env)

  /** The record as stored now; 404 when there is none, 409 when it is removed and `changing`. */
  const current = async (id: string, changing: boolean): Promise<VersionedRecord> => {
    const found = await env.registry.read(id)
    if (!found) throw new HttpError(404, `no cluster ${id}`)
    if (changing && found.record.removedAt !== undefined) throw new HttpError(409, `cluster ${id} was removed; its data is purged after ${found.record.purgeAfter}`)
    return found
  }
  const raced = (id: string) => new HttpError(409, `cluster ${id} changed while this request was answered; read it again and retry`)

  routes.get('/:id', admin, async (c) => c.json(publicRecord((await current(c.req.param('id'), false)).record)))

  routes.patch('/:id', admin, async (c) => {
    const id = c.req.param('id')
    const { id: sentId, ...patch } = await readJson(c.req.raw, BODY_BYTES, settingsPatch)
    if (sentId !== undefined && sentId !== id) throw new HttpError(400, 'a cluster id cannot change: register a new cluster instead', 'id')
    const found = await current(id, true)
    const record = { ...found.record, ...patch }
    if (!(await env.registry.replace(record, found.etag))) throw raced(id)
    return c.json(publicRecord(record))
  })

  routes.post('/:id/token', admin, async (c) => {
    const id = c.req.param('id')
    const { overlapSeconds } = await readOptionalJson(c.req.raw, BODY_BYTES, tokenRotation)
    const rotated = await env.registry.rotateToken(await current(id, true), overlapSeconds)
    if (!rotated) throw raced(id)
    return c.json({ ...publicRecord(rotated.record), token: rotated.token })
  })

  routes.delete('/:id', admin, async (c) => {
    const id = c.req.param('id')
    const { graceSeconds } = await readOptionalJson(c.req.raw, BODY_BYTES, clusterRemoval)
    const removed = await env.registry.remove(await current(id, true), graceSeconds)
    if (!removed) throw raced(id)
    return c.json(publicRecord(removed))
  })
  return routes
}
