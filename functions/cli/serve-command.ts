import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { serve } from '@hono/node-server'
import { createApp } from '../app/app.ts'
import { buildEnv } from '../app/build-env.ts'
import { deploymentSecrets } from '../app/deployment-secrets.ts'
import { kubernetesWriters } from '../kubernetes/cluster-writers.ts'
import { adminToken } from '../node/admin-token.ts'
import { nodeSha256 } from '../node/sha256.ts'
import { createDiskStore } from '../storage/disk-store.ts'
import { seedExample } from './seed-example.ts'
import { parseOptions, UsageError } from './usage-error.ts'

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
  const secrets = deploymentSecrets(process.env)
  const app = createApp(buildEnv({ store: createDiskStore({ root: data }), adminToken: admin.token, hash: nodeSha256, writers: kubernetesWriters, ...(secrets ? { secrets } : {}) }))

  const listening = await new Promise<{ address: string; port: number }>((done) => {
    const server = serve({ fetch: app.fetch, port, hostname: values.host }, (info) => done(info))
    const stop = () => server.close(() => process.exit(0))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  const url = `http://${listening.address.includes(':') ? `[${listening.address}]` : listening.address}:${listening.port}`
  console.log(`hapedge serving on ${url} (data in ${values.data})`)
  console.log(`admin token: ${admin.token} (from ${admin.source})`)
  if (!secrets) console.log('no HAPEDGE_SECRET: clusters cannot be given API server credentials (they are stored sealed under it)')
  if (values.example) await seedExample(app, admin.token, data, url)
  return new Promise<number>(() => {})
}
