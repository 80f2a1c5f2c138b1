import { forcePathStyleIn, isBucketName, isHttpUrl, regionIn, type S3Location } from '../composition/s3-location.ts'

/**
 * What the Lambda entry point takes from the function's environment variables: `HAPEDGE_BUCKET`
 * (required), `HAPEDGE_S3_ENDPOINT`, `HAPEDGE_S3_FORCE_PATH_STYLE` and `AWS_REGION`, which Lambda
 * sets (see S3Location); credentials are the execution role's.
 */
export interface LambdaConfig extends Omit<S3Location, 'prefix'> {
  /**
   * `HAPEDGE_ADMIN_TOKEN` (required): registers and lists clusters. In production the deployment
   * puts it into the environment from Secrets Manager or SSM Parameter Store (a CloudFormation
   * `{{resolve:secretsmanager:…}}` reference, say); the function does not fetch it, so it needs
   * no secrets permission and no extra call on a cold start.
   */
  adminToken: string
  /** Node text kept warm in the container: a quarter of `AWS_LAMBDA_FUNCTION_MEMORY_SIZE` (MB, set by Lambda; 128 if not). */
  cache: { perCluster: number; clusters: number }
}

/** `buildEnv`'s own minimum, checked here too so that the error names the variable. */
const MIN_ADMIN_TOKEN = 16
const CACHED_CLUSTERS = 4

/**
 * The configuration from `environment` (Lambda's `process.env`), or one error that names every
 * variable that is missing or wrong, so that a misconfigured function says what to fix at once.
 */
export function readLambdaConfig(environment: Record<string, string | undefined>): LambdaConfig {
  const problems: string[] = []
  const value = (name: string) => environment[name]?.trim() || undefined
  const required = (name: string, what: string) => {
    const found = value(name)
    if (!found) problems.push(`${name} is not set: ${what}`)
    return found ?? ''
  }

  const bucket = required('HAPEDGE_BUCKET', 'the S3 bucket that holds the clusters')
  if (bucket && !isBucketName(bucket)) problems.push(`HAPEDGE_BUCKET is not an S3 bucket name: ${JSON.stringify(bucket)}`)
  const endpoint = value('HAPEDGE_S3_ENDPOINT')
  if (endpoint && !isHttpUrl(endpoint)) problems.push(`HAPEDGE_S3_ENDPOINT is not an http(s) URL: ${JSON.stringify(endpoint)}`)
  const forcePathStyle = forcePathStyleIn(environment, problems)
  const region = regionIn(environment, problems, 'Lambda sets it')
  const adminToken = required('HAPEDGE_ADMIN_TOKEN', 'the token that registers clusters')
  if (adminToken && adminToken.length < MIN_ADMIN_TOKEN) problems.push(`HAPEDGE_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN} characters`)
  if (problems.length > 0) throw new Error(`hapedge lambda configuration: ${problems.join('; ')}`)

  const memoryMb = Number(value('AWS_LAMBDA_FUNCTION_MEMORY_SIZE'))
  const cacheBytes = ((Number.isInteger(memoryMb) && memoryMb > 0 ? memoryMb : 128) * 1024 * 1024) / 4
  return {
    bucket,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle,
    region,
    adminToken,
    cache: { perCluster: Math.floor(cacheBytes / CACHED_CLUSTERS), clusters: CACHED_CLUSTERS },
  }
}
