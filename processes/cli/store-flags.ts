import { forcePathStyleIn, isHttpUrl, parseS3Url, regionIn, type S3Location } from '../../functions/platforms/composition/s3-location.ts'
import { s3Storage, UnusableStore } from '../../functions/platforms/node-server/s3-storage.ts'
import type { ServerStorage } from '../../functions/platforms/node-server/server.ts'
import { CommandError } from './command-error.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { UsageError } from './usage-error.ts'

/** Where `hapedge serve` and `hapedge gc` keep clusters when not in a data directory: an S3 bucket. */
export const storeFlags = {
  store: {
    value: 's3://BUCKET[/PREFIX]',
    description: 'clusters in an S3 bucket instead of --data, every key under PREFIX/; several replicas may share it',
  },
  // Not the flag's `env`: set in a shell for another tool, HAPEDGE_S3_ENDPOINT must not make a --data run a usage error.
  's3-endpoint': {
    value: 'URL',
    defaultNote: '$HAPEDGE_S3_ENDPOINT, else AWS S3',
    description: "an S3-compatible server for --store: MinIO, Ceph RGW, R2's S3 API",
  },
  's3-force-path-style': { description: 'address --store as URL/BUCKET/KEY, as most S3-compatible servers want (or HAPEDGE_S3_FORCE_PATH_STYLE=true)' },
} as const satisfies FlagTable

/** The environment `--store` reads, for a command's help. */
export const STORE_ENVIRONMENT = {
  AWS_REGION: 'with --store: the region of the bucket (any, us-east-1 say, for most S3-compatible servers)',
  AWS_ACCESS_KEY_ID: 'with --store: credentials, with AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), unless a profile or role the AWS SDK finds gives them',
  HAPEDGE_S3_FORCE_PATH_STYLE: 'true: as --s3-force-path-style',
}

/**
 * The bucket `--store` names with how to reach it, or undefined without `--store`. Wrong words,
 * with the command's own `problems` (`--data` beside `--store`, say), are one UsageError; a wrong
 * environment (no region) is a CommandError.
 */
export function s3LocationOf(values: FlagValues<typeof storeFlags>, problems: string[] = []): S3Location | undefined {
  if (!values.store) {
    const s3Only = (['s3-endpoint', 's3-force-path-style'] as const).filter((flag) => values[flag]).map((flag) => `--${flag}`)
    if (s3Only.length > 0) throw new UsageError(`${s3Only.join(' and ')} ${s3Only.length > 1 ? 'are' : 'is'} for --store only`)
    return undefined
  }
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

/** The bucket, checked before use (see s3Storage): what makes it unusable is a CommandError saying what to fix. */
export async function openS3Storage(location: S3Location): Promise<ServerStorage> {
  // The SDK warns on Node 20 that its releases after January 2027 need Node 22: a concern of hapedge's
  // dependencies (package.json), not of whoever runs the command, whose stderr it would open with seven lines.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  try {
    return await s3Storage(location)
  } catch (error) {
    throw error instanceof UnusableStore ? new CommandError(error.message) : error
  }
}
