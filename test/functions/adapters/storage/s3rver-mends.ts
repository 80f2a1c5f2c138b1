import { createHash, randomBytes } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { compareKeys } from '../../../../functions/adapters/storage/compare-keys.ts'

interface S3rverObject {
  bucket: string
  key: string
  content: Buffer | Readable
  metadata: Record<string, string>
}

/** The methods of s3rver 3.7.1's FilesystemStore (`server.store`) mended here. */
export interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>
  listObjects(bucket: string, options: unknown): Promise<{ objects: { key: string }[] }>
  deleteObject(bucket: string, key: string): Promise<void>
}

/**
 * Three places where s3rver 3.7.1 is not S3, mended so that the contract tests the adapter rather
 * than them; the HTTP layer and everything else stay s3rver's own.
 * - It answers a PUT before the bytes reach its file (it waits for its hashing stream, not the
 *   write stream), so a GET right after an overwrite can return the old bytes. Here a put writes
 *   a temp file and renames it before answering.
 * - It lists in directory-walk order (`a/b/1` before `a/b-1`), where S3 lists in UTF-8 byte
 *   order. Here each page is sorted: exact within a page, and one directory's keys already come
 *   in order from page to page.
 * - A DeleteObjects that empties a directory fails with 500: each key's delete removes the
 *   directory once empty, in parallel, and all but the first find it gone. Here that is no error.
 */
export function mendS3rver(store: S3rverStore): void {
  store.putObject = async (object) => {
    const path = store.getResourcePath(object.bucket, object.key, 'object')
    const content = Buffer.isBuffer(object.content) ? object.content : await buffer(object.content)
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
    await mkdir(dirname(path), { recursive: true })
    await writeFile(temp, content)
    await rename(temp, path)
    const md5 = createHash('md5').update(content).digest('hex')
    await store.putMetadata(object.bucket, object.key, object.metadata, md5)
    return { size: content.length, md5 }
  }
  const listObjects = store.listObjects.bind(store)
  store.listObjects = async (bucket, options) => {
    const page = await listObjects(bucket, options)
    page.objects.sort((a, b) => compareKeys(a.key, b.key))
    return page
  }
  const deleteObject = store.deleteObject.bind(store)
  store.deleteObject = (bucket, key) =>
    deleteObject(bucket, key).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
}
