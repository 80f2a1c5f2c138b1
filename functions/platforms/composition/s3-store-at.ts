import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createS3Client } from '../../adapters/storage/s3-client.ts'
import { createS3Store } from '../../adapters/storage/s3-store.ts'
import type { S3Location } from './s3-location.ts'

/** The S3 store at `location`, every key under its prefix. */
export function s3StoreAt(location: S3Location): ObjectStore {
  const client = createS3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
  })
  return createS3Store({ client, bucket: location.bucket, ...(location.prefix ? { prefix: location.prefix } : {}) })
}
