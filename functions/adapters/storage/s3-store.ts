import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import type { S3Client } from '@aws-sdk/client-s3'
import { toBytes } from '../../../core/hash.ts'
import { StorageError } from '../../../core/ports/object-store.ts'
import type { ObjectStore, PutCondition } from '../../../core/ports/object-store.ts'
import { s3Failure, statusOf } from './s3-error.ts'

export interface S3StoreOptions {
  /** A client for the service (AWS S3, R2's S3 API, MinIO); `createS3Client` sets what R2 needs. */
  client: S3Client
  bucket: string
  /** Prepended to every key, so that one bucket can hold several stores (`hapedge/`, say). */
  prefix?: string
}

/** S3 takes at most this many keys per DeleteObjects. */
const DELETE_BATCH = 1000

/** S3 quotes its etags; the port's etags are bare tokens, as on disk and R2. */
const bare = (etag: string | undefined) => etag?.replace(/^"|"$/g, '') ?? ''

/**
 * Whether a failed put lost a race: 412 PreconditionFailed, 409 ConditionalRequestConflict
 * (a concurrent conditional write), or 404 NoSuchKey for If-Match on a key that is gone.
 */
const lostRace = (condition: PutCondition | undefined, status: number | undefined) =>
  condition !== undefined && (status === 412 || status === 409 || (status === 404 && 'ifMatch' in condition))

function conditionHeaders(condition: PutCondition | undefined) {
  if (!condition) return {}
  return 'ifNoneMatch' in condition ? { IfNoneMatch: '*' } : { IfMatch: `"${condition.ifMatch}"` }
}

/** Objects in an S3 bucket through `@aws-sdk/client-s3`; conditional puts are S3's If-Match / If-None-Match. */
export function createS3Store(options: S3StoreOptions): ObjectStore {
  const { client, bucket, prefix = '' } = options
  if (!client || !bucket) throw new Error('s3 store: options.client and options.bucket are required')

  async function at<T>(operation: StorageError['operation'], key: string, fn: () => Promise<T>, fallback: (status?: number) => boolean = () => false) {
    try {
      return await fn()
    } catch (error) {
      if (fallback(statusOf(error))) return undefined
      throw new StorageError(operation, key, s3Failure(error))
    }
  }
  const missing = (status?: number) => status === 404

  return {
    get: (key) =>
      at(
        'get',
        key,
        async () => {
          const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }))
          const body = (await output.Body?.transformToByteArray()) ?? new Uint8Array(0)
          return { body, etag: bare(output.ETag), size: body.length }
        },
        missing,
      ),
    head: (key) =>
      at(
        'head',
        key,
        async () => {
          const output = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + key }))
          return { etag: bare(output.ETag), size: output.ContentLength ?? 0 }
        },
        missing,
      ),
    put: (key, body, condition) =>
      at(
        'put',
        key,
        async () => {
          const command = new PutObjectCommand({ Bucket: bucket, Key: prefix + key, Body: toBytes(body), ...conditionHeaders(condition) })
          return bare((await client.send(command)).ETag)
        },
        (status) => lostRace(condition, status),
      ),
    async *list(listPrefix) {
      let token: string | undefined
      do {
        const command = new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix + listPrefix, ContinuationToken: token })
        const page = (await at('list', listPrefix, () => client.send(command)))!
        for (const object of page.Contents ?? []) {
          yield { key: object.Key!.slice(prefix.length), size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    },
    async delete(keys) {
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH)
        const objects = batch.map((key) => ({ Key: prefix + key }))
        const output = await at('delete', batch[0]!, () => client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } })))
        const failed = output?.Errors?.[0]
        if (failed) throw new StorageError('delete', failed.Key?.slice(prefix.length) ?? batch[0]!, `${failed.Code}: ${failed.Message}`)
      }
    },
  }
}
