import { resolve } from 'node:path'
import { nodeServer } from '../../functions/platforms/node-server/server.ts'
import { defineCommand } from './command.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { listen } from './listen.ts'
import { seedExample } from './seed-example.ts'
import { UsageError } from './usage-error.ts'

const serveFlags = {
  data: { value: 'DIR', default: '.hapedge', description: 'where clusters are stored, made if missing' },
  port: { value: 'N', default: '8787', description: 'the port to listen on; 0 takes any free port' },
  host: { value: 'ADDR', default: '127.0.0.1', description: 'the address to listen on; 0.0.0.0 for every interface' },
  example: { description: 'register the cluster "example" and load infra/examples/ into it, as npm start does' },
} as const satisfies FlagTable

/** `hapedge serve [--data DIR] [--port N] [--host ADDR] [--example]`: the functions as a Node server on local disk. */
export const serveCommand = defineCommand({
  flags: serveFlags,
  example: 'hapedge serve --data .hapedge --port 8787 --example',
  environment: {
    HAPEDGE_ADMIN_TOKEN: 'the admin token (default: the one kept in DIR/admin-token, made on the first start)',
    HAPEDGE_SECRET: 'the deployment secret that seals cluster content (default: one kept in DIR, made on the first start)',
    HAPEDGE_PREVIOUS_SECRET: 'the secret before HAPEDGE_SECRET, while rotating',
  },
  run: serveOnDisk,
})

async function serveOnDisk(values: FlagValues<typeof serveFlags>): Promise<number> {
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port ${values.port}: 0 (any free port) to 65535`)
  const data = resolve(values.data)
  const { app, admin, sealing } = await nodeServer(data)

  const { server, address: listening } = await listen(
    app.fetch,
    { host: values.host, port },
    { portFlag: '--port', hostFlag: '--host', usualHolder: 'another hapedge serve?' },
  )
  const stop = () => server.close(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const url = `http://${listening.address.includes(':') ? `[${listening.address}]` : listening.address}:${listening.port}`
  console.log(`hapedge serving on ${url} (data in ${values.data})`)
  console.log(`admin token: ${admin.token} (from ${admin.source})`)
  console.log(`fleet page: ${url}/fleet (sign in with the admin token)`)
  const fromFile = sealing.source !== 'HAPEDGE_SECRET'
  console.log(
    `sealing cluster content (snapshot nodes and rendered files: TLS private keys) and API server credentials under ${fromFile ? `the deployment secret in ${sealing.source}` : 'HAPEDGE_SECRET'}`,
  )
  if (fromFile)
    console.log('  kept beside the data, it protects copies of clusters/ made without it, not the data directory: set HAPEDGE_SECRET to keep it elsewhere')
  if (values.example) await seedExample(app, admin.token, data, url)
  return new Promise<number>(() => {})
}
