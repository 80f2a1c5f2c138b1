import { resolve } from 'node:path'
import { forcePathStyleIn, isHttpUrl, parseS3Url, regionIn, s3Url, type S3Location } from '../../functions/platforms/composition/s3-location.ts'
import { s3Storage, UnusableStore } from '../../functions/platforms/node-server/s3-storage.ts'
import { diskStorage, nodeServer, type ServerStorage } from '../../functions/platforms/node-server/server.ts'
import { CommandError } from './command-error.ts'
import { defineCommand } from './command.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { listen } from './listen.ts'
import { seedExample } from './seed-example.ts'
import { UsageError } from './usage-error.ts'

const DEFAULT_DATA = '.hapedge'

const serveFlags = {
  data: { value: 'DIR', defaultNote: `${DEFAULT_DATA}, unless --store`, description: 'where clusters are stored on local disk, made if missing' },
  store: {
    value: 's3://BUCKET[/PREFIX]',
    description: 'store clusters in an S3 bucket instead of --data, every key under PREFIX/; several replicas may share it',
  },
  // Not the flag's `env`: set in a shell for another tool, HAPEDGE_S3_ENDPOINT must not make a --data serve a usage error.
  's3-endpoint': {
    value: 'URL',
    defaultNote: '$HAPEDGE_S3_ENDPOINT, else AWS S3',
    description: "an S3-compatible server for --store: MinIO, Ceph RGW, R2's S3 API",
  },
  's3-force-path-style': { description: 'address --store as URL/BUCKET/KEY, as most S3-compatible servers want (or HAPEDGE_S3_FORCE_PATH_STYLE=true)' },
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
    AWS_REGION: 'with --store: the region of the bucket (any, us-east-1 say, for most S3-compatible servers)',
    AWS_ACCESS_KEY_ID: 'with --store: credentials, with AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), unless a profile or role the AWS SDK finds gives them',
    HAPEDGE_S3_FORCE_PATH_STYLE: 'true: as --s3-force-path-style',
  },
  run: serve,
})

async function serve(values: ServeValues): Promise<number> {
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port ${values.port}: 0 (any free port) to 65535`)
  const location = s3LocationOf(values)
  const data = location ? undefined : resolve(values.data ?? DEFAULT_DATA)
  const storage = data === undefined ? await s3StorageOrError(location!) : await diskStorage(data)
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
  console.log(`admin token: ${admin.token} (from ${admin.source})`)
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

/** The bucket `--store` names with how to reach it, or undefined for local disk; wrong words are a UsageError, a wrong environment a CommandError. */
function s3LocationOf(values: ServeValues): S3Location | undefined {
  const s3Only = (['s3-endpoint', 's3-force-path-style'] as const).filter((flag) => values[flag])
  if (!values.store) {
    if (s3Only.length > 0) throw new UsageError(`${s3Only.map((flag) => `--${flag}`).join(' and ')} ${s3Only.length > 1 ? 'are' : 'is'} for --store only`)
    return undefined
  }
  const problems: string[] = []
  if (values.data !== undefined) problems.push('--data and --store: give one (local disk, or an S3 bucket)')
  if (values.example) problems.push('--example needs --data: the example keeps its token in the data directory')
  const bucket = parseS3Url(values.store)
  if (!bucket) problems.push(`--store ${values.store}: s3://BUCKET[/PREFIX], BUCKET an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens)`)
  const endpoint = values['s3-endpoint'] ?? (process.env.HAPEDGE_S3_ENDPOINT?.trim() || undefined)
  if (endpoint !== undefined && !isHttpUrl(endpoint)) problems.push(`--s3-endpoint (or HAPEDGE_S3_ENDPOINT) ${JSON.stringify(endpoint)}: an http(s) URL`)
  if (problems.length > 0) throw new UsageError(problems.join('; '))

  const environmentProblems: string[] = []
  const forcePathStyle = forcePathStyleIn(process.env, environmentProblems) || values['s3-force-path-style']
  const region = regionIn(process.env, environmentProblems, 'any, us-east-1 say, for most S3-compatible servers')
  if (environmentProblems.length > 0) throw new CommandError(`--store ${values.store}: ${environmentProblems.join('; ')}`)
  return { ...bucket!, region, forcePathStyle, ...(endpoint ? { endpoint } : {}) }
}

async function s3StorageOrError(location: S3Location): Promise<ServerStorage> {
  // The SDK warns on Node 20 that its releases after January 2027 need Node 22: a concern of hapedge's
  // dependencies (package.json), not of whoever runs serve, whose stderr it would open with seven lines.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  try {
    return await s3Storage(location)
  } catch (error) {
    throw error instanceof UnusableStore ? new CommandError(error.message) : error
  }
}
