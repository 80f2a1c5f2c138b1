import { StorageError } from '../../../core/ports/object-store.ts'
import { ignoredConditions } from '../../adapters/storage/conditions-probe.ts'
import { s3Url, type S3Location } from '../composition/s3-location.ts'
import { DEPLOYMENT_PREFIX, storeSecrets } from './secret-keepers.ts'
import type { ServerStorage } from './server.ts'

/** The store cannot be used as configured: the message says what to fix. */
export class UnusableStore extends Error {
  override readonly name = 'UnusableStore'
}

/**
 * A bucket of S3 or an S3-compatible server, every key under the location's prefix, with the
 * secrets the environment does not give kept in it. Checked before anything is served: it must be
 * reachable with the credentials the AWS SDK finds, and it must refuse a write whose condition
 * fails, or several replicas would overwrite each other's HEAD.
 */
export async function s3Storage(location: S3Location): Promise<ServerStorage> {
  // Imported here: the AWS SDK takes about 4 MB of heap, which a server on local disk (`--data`) does without.
  const { s3StoreAt } = await import('../composition/s3-store-at.ts')
  const store = s3StoreAt(location)
  const url = s3Url(location)
  const at = location.endpoint ? ` at ${location.endpoint}` : ''
  let ignored: string[]
  try {
    ignored = await ignoredConditions(store, `${DEPLOYMENT_PREFIX}conditional-writes`)
  } catch (error) {
    if (error instanceof StorageError && (error.cause as Error | undefined)?.name === 'CredentialsProviderError')
      throw new UnusableStore(
        `no AWS credentials for ${url}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for temporary ones), or run with a profile or role the AWS SDK finds`,
      )
    throw new UnusableStore(`cannot use ${url}${at}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (ignored.length > 0)
    throw new UnusableStore(
      `${url}${at} ignores conditional writes (${ignored.join('; ')}), so replicas would overwrite each other's generations: ` +
        'hapedge needs an S3 server that refuses them (AWS S3, Cloudflare R2, Ceph RGW, a recent MinIO: see the README)',
    )
  return { store, secrets: storeSecrets(store, url) }
}
