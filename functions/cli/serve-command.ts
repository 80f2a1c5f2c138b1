import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { serve } from '@hono/node-server'
import { createApp } from '../app/app.ts'
import { buildEnv } from '../app/build-env.ts'
import { kubernetesWriters } from '../kubernetes/cluster-writers.ts'
import { adminToken } from '../node/admin-token.ts'
import { nodeDeploymentSecrets } from '../node/deployment-secret.ts'
import { nodeSha256 } from '../node/sha256.ts'
import { createDiskStore } from '../storage/disk-store.ts'
import { fairStore } from '../storage/fair-store.ts'
import { seedExample } from './seed-example.ts'
import { parseOptions, UsageError } from './usage-error.ts'

/**
 * A long-lived server keeps many clusters warm: one budget over all of them, so a fleet of small
 * clusters stays cached where a fixed count (16) sent most events to a cold cache.
 */
const SERVER_CACHE = { perCluster: 64 * 1024 * 1024, clusters: 4096, total: 256 * 1024 * 1024 }

/** `hapedge serve [--data DIR] [--port N] [--host ADDR] [--example]`: the functions as a Node server on local disk. */
export async function serveCommand(args: string[]): Promise<number> {
  const values = parseOptions(args, {
    data: { type: 'string', default: '.hapedge' },
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    example: { type: 'boolean', default: false },
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${values.port}: 0 (any free port) to 65535`)
  const data = resolve(values.data)
  await mkdir(data, { recursive: true })
  const admin = await adminToken(data)
  // Made on the first start when HAPEDGE_SECRET is unset, so the default path seals too.
  const sealing = (await nodeDeploymentSecrets(data, { create: true }))!
  const app = createApp(buildEnv({ store: fairStore(createDiskStore({ root: data })), adminToken: admin.token, hash: nodeSha256, cache: SERVER_CACHE, writers: kubernetesWriters, secrets: sealing.secrets }))

  const listening = await new Promise<{ address: string; port: number }>((done) => {
    const server = serve({ fetch: app.fetch, port, hostname: values.host }, (info) => done(info))
    const stop = () => server.close(() => process.exit(0))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  const url = `http://${listening.address.includes(':') ? `[${listening.address}]` : listening.address}:${listening.port}`
  console.log(`hapedge serving on ${url} (data in ${values.data})`)
  console.log(`admin token: ${admin.token} (from ${admin.source})`)
  const fromFile = sealing.source !== 'HAPEDGE_SECRET'
  console.log(`sealing cluster content (snapshot nodes and rendered files: TLS private keys) and API server credentials under ${fromFile ? `the deployment secret in ${sealing.source}` : 'HAPEDGE_SECRET'}`)
  if (fromFile) console.log('  kept beside the data, it protects copies of clusters/ made without it, not the data directory: set HAPEDGE_SECRET to keep it elsewhere')
  if (values.example) await seedExample(app, admin.token, data, url)
  return new Promise<number>(() => {})
}
