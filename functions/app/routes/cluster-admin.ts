import { Hono, type Context } from 'hono'
import type { ClusterRecordAnswer, RegisteredAnswer, SettingsAnswer } from '../../../core/api/cluster-answers.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { publicRecord, type ClusterRecord } from '../../../core/registry/cluster-record.ts'
import { clusterRemoval, tokenRotation } from '../../../core/registry/lifecycle-requests.ts'
import type { VersionedRecord } from '../../../core/registry/registry.ts'
import { settingsPatch } from '../../../core/registry/settings-patch.ts'
import { gatewayPortsClash } from '../../../core/model/gateway-port-setting.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../http/auth.ts'
import { HttpError } from '../http/http-error.ts'
import { readJson, readOptionalJson } from '../http/read-body.ts'
import { write } from './ingestion.ts'

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
    if (changing && found.record.removedAt !== undefined)
      throw new HttpError(409, `cluster ${id} was removed; its data is purged after ${found.record.purgeAfter}`)
    return found
  }
  const raced = (id: string) => new HttpError(409, `cluster ${id} changed while this request was answered; read it again and retry`)

  routes.get('/:id', admin, async (c) => c.json(publicRecord((await current(c.req.param('id'), false)).record) satisfies ClusterRecordAnswer))

  routes.patch('/:id', admin, async (c) => {
    const id = c.req.param('id')
    const { id: sentId, ...patch } = await readJson(c.req.raw, BODY_BYTES, settingsPatch)
    if (sentId !== undefined && sentId !== id) throw new HttpError(400, 'a cluster id cannot change: register a new cluster instead', 'id')
    const found = await current(id, true)
    const { retention, ...changes } = patch
    const record: ClusterRecord = { ...found.record, ...changes }
    const clash = gatewayPortsClash(record)
    if (clash) throw new HttpError(400, clash, 'gatewayPorts')
    if (retention === null) delete record.retention
    else if (retention) record.retention = retention
    if (!(await env.registry.replace(record, found.etag))) throw raced(id)
    return c.json({ ...publicRecord(record), ...(await renderUnder(c, record)) } satisfies SettingsAnswer)
  })

  /**
   * Takes the record's settings into the cluster's files at once: an empty change, committed
   * through the writes' own path, derives again what the options feed when the snapshot was made
   * under others, and commits nothing when it was not (a retried PATCH finishes one whose render
   * failed). A cluster with no generation yet has nothing to render: its first write uses these settings.
   */
  const renderUnder = async (c: Context<{ Variables: AppVariables }>, record: ClusterRecord) => {
    if (!(await readHead(env.store, clusterKeys(record.id)))) return { generation: null, committed: false, reload: false, reasons: [] }
    const { generation, committed, reload, reasons } = await write(env, c, [], record)
    return { generation, committed, reload, reasons }
  }

  routes.post('/:id/token', admin, async (c) => {
    const id = c.req.param('id')
    const { overlapSeconds } = await readOptionalJson(c.req.raw, BODY_BYTES, tokenRotation)
    const rotated = await env.registry.rotateToken(await current(id, true), overlapSeconds)
    if (!rotated) throw raced(id)
    return c.json({ ...publicRecord(rotated.record), token: rotated.token } satisfies RegisteredAnswer)
  })

  routes.delete('/:id', admin, async (c) => {
    const id = c.req.param('id')
    const { graceSeconds } = await readOptionalJson(c.req.raw, BODY_BYTES, clusterRemoval)
    const removed = await env.registry.remove(await current(id, true), graceSeconds)
    if (!removed) throw raced(id)
    return c.json(publicRecord(removed) satisfies ClusterRecordAnswer)
  })
  return routes
}
