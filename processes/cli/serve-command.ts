import { resolve } from 'node:path'
import { s3Url } from '../../functions/platforms/composition/s3-location.ts'
import { diskStorage, nodeServer } from '../../functions/platforms/node-server/server.ts'
import { defineCommand } from './command.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { listen } from './listen.ts'
import { seedExample } from './seed-example.ts'
import { openS3Storage, s3LocationOf, STORE_ENVIRONMENT, storeFlags } from './store-flags.ts'
import { UsageError } from './usage-error.ts'

const DEFAULT_DATA = '.hapedge'

const serveFlags = {
  data: { value: 'DIR', defaultNote: `${DEFAULT_DATA}, unless --store`, description: 'where clusters are stored on local disk, made if missing' },
  ...storeFlags,
  port: { value: 'N', default: '8787', description: 'the port to listen on; 0 takes any free port' },
  host: { value: 'ADDR', default: '127.0.0.1', description: 'the address to listen on; 0.0.0.0 for every interface' },
  example: { description: 'register the cluster "example" and load infra/examples/ into it, as npm start does (with --data only)' },
} as const satisfies FlagTable

type ServeValues = FlagValues<typeof serveFlags>

/** `hapedge serve [--data DIR | --store s3://BUCKET[/PREFIX]] [--port N] [--host ADDR] [--example]`: the functions as a Node server. */
export const serveCommand = defineCommand({
  flags: serveFlags,
  example: 'hapedge serve --data .hapedge --port 8787 --example',
  environment: {
    HAPEDGE_ADMIN_TOKEN: 'the admin token (default: the one kept in DIR/admin-token, or in the store, made on the first start)',
    HAPEDGE_SECRET: 'the deployment secret that seals cluster content (default: one kept in DIR or in the store, made on the first start)',
    HAPEDGE_PREVIOUS_SECRET: 'the secret before HAPEDGE_SECRET, while rotating',
    ...STORE_ENVIRONMENT,
  },
  run: serve,
})

async function serve(values: ServeValues): Promise<number> {
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port ${values.port}: 0 (any free port) to 65535`)
  const location = s3LocationOf(values, [
    ...(values.store && values.data !== undefined ? ['--data and --store: give one (local disk, or an S3 bucket)'] : []),
    ...(values.store && values.example ? ['--example needs --data: the example keeps its token in the data directory'] : []),
  ])
  const data = location ? undefined : resolve(values.data ?? DEFAULT_DATA)
  const storage = location ? await openS3Storage(location) : await diskStorage(data!)
  const { app, admin, sealing } = await nodeServer(storage)

  const { server, address: listening } = await listen(
    app.fetch,
    { host: values.host, port },
    { portFlag: '--port', hostFlag: '--host', usualHolder: 'another hapedge serve?' },
  )
  const stop = () => server.close(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const url = `http://${listening.address.includes(':') ? `[${listening.address}]` : listening.address}:${listening.port}`
  const kept = location ? `clusters in ${s3Url(location)}${location.endpoint ? ` at ${location.endpoint}` : ''}` : `data in ${values.data ?? DEFAULT_DATA}`
  console.log(`hapedge serving on ${url} (${kept})`)
  // A token given in the environment is known to whoever gave it: printed, it would only reach the logs.
  console.log(
    admin.source === 'HAPEDGE_ADMIN_TOKEN' ? 'admin token: from HAPEDGE_ADMIN_TOKEN (not printed)' : `admin token: ${admin.token} (from ${admin.source})`,
  )
  console.log(`fleet page: ${url}/fleet (sign in with the admin token)`)
  const fromStorage = sealing.source !== 'HAPEDGE_SECRET'
  console.log(
    `sealing cluster content (snapshot nodes and rendered files: TLS private keys) and API server credentials under ${fromStorage ? `the deployment secret in ${sealing.source}` : 'HAPEDGE_SECRET'}`,
  )
  if (fromStorage)
    console.log(
      `  kept beside the data, it protects copies of clusters/ made without it, not the ${location ? 'bucket' : 'data directory'}: set HAPEDGE_SECRET to keep it elsewhere`,
    )
  if (values.example && data) await seedExample(app, admin.token, data, url)
  return new Promise<number>(() => {})
}
