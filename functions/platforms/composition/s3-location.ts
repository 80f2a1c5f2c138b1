/** Where a platform's clusters are kept in S3 and how it reaches them: the Lambda's, and `hapedge serve --store`'s. */
export interface S3Location {
  bucket: string
  /** Prepended to every key (`team-a/`), so several deployments share one bucket; none: the whole bucket. */
  prefix?: string
  /** `AWS_REGION`. Credentials come the SDK's own way (its environment variables, a profile, a role). */
  region: string
  /** An S3-compatible service (MinIO, Ceph RGW, R2's S3 API, a test server); AWS S3 when unset. */
  endpoint?: string
  /** `endpoint/bucket/key` URLs, as most S3 look-alikes want. */
  forcePathStyle: boolean
}

/** S3's rule for bucket names: 3 to 63 lowercase letters, digits, dots and hyphens. */
export const BUCKET_RULE = '3 to 63 lowercase letters, digits, dots and hyphens'
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

export const isBucketName = (text: string) => BUCKET.test(text)

export function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol)
  } catch {
    return false
  }
}

/** `HAPEDGE_S3_FORCE_PATH_STYLE` (`true` or `false`, any case; default false); a wrong value is added to `problems`. */
export function forcePathStyleIn(environment: Record<string, string | undefined>, problems: string[]): boolean {
  const text = environment.HAPEDGE_S3_FORCE_PATH_STYLE?.trim().toLowerCase()
  if (text && text !== 'true' && text !== 'false') problems.push(`HAPEDGE_S3_FORCE_PATH_STYLE must be true or false, not ${JSON.stringify(text)}`)
  return text === 'true'
}

/** `AWS_REGION`; its absence is added to `problems`, saying where the region comes from on this platform (`note`). */
export function regionIn(environment: Record<string, string | undefined>, problems: string[], note: string): string {
  const region = environment.AWS_REGION?.trim()
  if (!region) problems.push(`AWS_REGION is not set: the region of the bucket (${note})`)
  return region ?? ''
}

/** `s3://BUCKET[/PREFIX]` as a bucket and a key prefix ending in `/`; undefined when it is not one (no bucket name, an empty or dot segment). */
export function parseS3Url(text: string): Pick<S3Location, 'bucket' | 'prefix'> | undefined {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text)
  if (!match || !isBucketName(match[1]!)) return undefined
  const path = (match[2] ?? '').replace(/\/+$/, '')
  if (path === '') return { bucket: match[1]! }
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined
  return { bucket: match[1]!, prefix: `${path}/` }
}

/** The location as a URL: `s3://bucket/prefix/`. */
export const s3Url = (location: Pick<S3Location, 'bucket' | 'prefix'>) => `s3://${location.bucket}/${location.prefix ?? ''}`
