import { Hono } from 'hono'
import { z } from 'zod'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { generationDelta } from '../../../core/reading/generation-delta.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { sha256Hex } from '../../../core/syntax/sha256-hex.ts'
import { nodeText } from '../../../core/tree/node-body.ts'
import type { HeadAnswer } from '../../../core/api/head-answer.ts'
import type { AppEnv } from '../app-env.ts'
import type { AppVariables } from '../http/auth.ts'
import { HttpError } from '../http/http-error.ts'
import { readQuery } from '../http/read-body.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const headQuery = z.object({ have: sha256Hex.optional() })
const contentParam = z.object({ sha256: sha256Hex })

/** What agents read: HEAD, and manifests and blobs by their sha256 (immutable, checked before they are served). */
export function contentRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()

  // With `?have=<manifest>`, the answer also carries the blobs a reader of that generation lacks, so following a change costs one request.
  routes.get('/head', async (c) => {
    const cluster = c.get('record').id
    const { have } = readQuery(c.req.query(), headQuery)
    const keys = clusterKeys(cluster)
    const current = await readHead(env.store, keys)
    if (!current) throw new HttpError(404, `cluster ${cluster} has no generation yet: send its objects first`)
    const { generation, manifest, snapshot } = current.head
    if (have === undefined) return c.json({ generation, manifest, snapshot } satisfies HeadAnswer, 200, { 'cache-control': 'no-store' })
    const context = env.caches.for(cluster)
    const held = have === manifest || context.nodes.has(have) || (await env.store.head(keys.node('blobs', have))) ? have : undefined
    const delta = await generationDelta(manifest, held, new NodeLoader(env.store, keys, context), context, env.limits.deltaBytes)
    return c.json({ generation, manifest, snapshot, blobs: Object.fromEntries(delta) } satisfies HeadAnswer, 200, { 'cache-control': 'no-store' })
  })

  for (const [route, type] of [
    ['manifests', 'application/json'],
    ['blobs', 'application/octet-stream'],
  ] as const) {
    routes.get(`/${route}/:sha256`, async (c) => {
      const { sha256 } = readQuery(c.req.param(), contentParam)
      const cluster = c.get('record').id
      const key = clusterKeys(cluster).node('blobs', sha256)
      const stored = await env.store.get(key)
      if (!stored) throw new HttpError(404, `no ${route === 'manifests' ? 'manifest' : 'blob'} ${sha256} in this cluster`)
      // Served as the text it names, whether it is stored plain or gzipped.
      const text = await nodeText(stored.body, env.caches.for(cluster).gzip).catch((error: Error) => {
        throw new HttpError(500, `${key}: stored content is ${error.message}`)
      })
      if (env.hash(text) !== sha256) throw new HttpError(500, `${key}: stored content does not match its sha256`)
      return c.body(text, 200, { 'content-type': type, 'cache-control': IMMUTABLE, etag: `"${sha256}"` })
    })
  }
  return routes
}
