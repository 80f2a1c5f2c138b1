// `hono/aws-lambda` says it moves to `@hono/aws-lambda` in hono 5; that package is not published yet.
import { handle, type LambdaContext, type LambdaEvent } from 'hono/aws-lambda'
import { nodeGzip } from '../../adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../../adapters/hash/node-sha256.ts'
import { deploymentSecrets } from '../composition/deployment-secrets.ts'
import { platformApp } from '../composition/platform-app.ts'
import { s3StoreAt } from '../composition/s3-store-at.ts'
import { readLambdaConfig, type LambdaConfig } from './lambda-config.ts'

/**
 * The app on S3 as a Lambda handler, configured by `environment` (see `LambdaConfig`). It takes
 * API Gateway HTTP API events (payload format 2.0) and function URL events, which share that
 * shape, and answers `{ statusCode, headers, body, isBase64Encoded }`, binary bodies in base64.
 */
export function createLambdaHandler(environment: Record<string, string | undefined> = process.env) {
  const config = readLambdaConfig(environment)
  return handle(
    platformApp({
      store: storeOf(config),
      adminToken: config.adminToken,
      hash: nodeSha256,
      gzip: nodeGzip,
      cache: config.cache,
      secrets: deploymentSecrets(environment),
    }),
  )
}

/** The S3 store a configuration names. */
export const storeOf = (config: LambdaConfig) => s3StoreAt(config)

/**
 * One app per container (its node caches stay warm across invocations), made on the first
 * invocation. A configuration error fails that invocation with a message naming the variable,
 * and is not kept: the next invocation reads the environment again.
 */
let lambda: ReturnType<typeof createLambdaHandler> | undefined
export async function handler(event: LambdaEvent, context?: LambdaContext) {
  return (lambda ??= createLambdaHandler())(event, context)
}
