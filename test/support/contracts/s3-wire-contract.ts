import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { storageError } from './storage-error.ts'

/** What the stand-in for S3 answers next: a status, and S3's XML error body when `code` is set. */
export interface WireReply {
  status: number
  code?: string
  headers?: Record<string, string>
}

/** A request as the stand-in received it; `path` is the URL's path and query. */
export interface WireRequest {
  method: string
  path: string
  header(name: string): string | undefined
}

export interface WireSubject {
  /** An S3 store for bucket `hapedge` with key prefix `p/`, whose client reaches the stand-in. */
  store: ObjectStore
  reply(next: WireReply): void
  lastRequest(): WireRequest
  cleanup?(): Promise<void>
}

/** The body S3 sends with an error status. */
export const s3ErrorXml = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code} from the stand-in</Message><RequestId>stand-in-1</RequestId></Error>`

/**
 * What the S3 store sends and how it reads S3's answers, against a stand-in that records the
 * requests and answers what a case sets: the compare-and-swap path, which s3rver cannot show.
 */
export function s3WireContract(name: string, setup: () => Promise<WireSubject>): void {
  describe(`S3 store on the wire: ${name}`, () => {
    let wire: WireSubject
    let store: ObjectStore
    beforeAll(async () => {
      wire = await setup()
      store = wire.store
    })
    afterAll(async () => wire?.cleanup?.())

    it('sends If-None-Match: * for create-only, and reads 412 PreconditionFailed as a lost race', async () => {
      wire.reply({ status: 412, code: 'PreconditionFailed' })
      expect(await store.put('clusters/a/HEAD', '{}', { ifNoneMatch: '*' })).toBeUndefined()
      const request = wire.lastRequest()
      expect([request.method, request.path]).toEqual(['PUT', '/hapedge/p/clusters/a/HEAD?x-id=PutObject'])
      expect(request.header('if-none-match')).toBe('*')
      expect(request.header('if-match')).toBeUndefined()
    })

    it('sends If-Match with the quoted etag, and reads 409 ConditionalRequestConflict as a lost race', async () => {
      wire.reply({ status: 409, code: 'ConditionalRequestConflict' })
      expect(await store.put('clusters/a/HEAD', '{}', { ifMatch: 'abc123' })).toBeUndefined()
      expect(wire.lastRequest().header('if-match')).toBe('"abc123"')
      expect(wire.lastRequest().header('if-none-match')).toBeUndefined()
    })

    it('reads 404 NoSuchKey as a lost race for If-Match (the object is gone) and as missing for get', async () => {
      wire.reply({ status: 404, code: 'NoSuchKey' })
      expect(await store.put('clusters/a/HEAD', '{}', { ifMatch: 'abc123' })).toBeUndefined()
      expect(await store.get('clusters/a/HEAD')).toBeUndefined()
    })

    it('returns the new etag, unquoted, when the condition holds; an unconditional put sends no condition', async () => {
      wire.reply({ status: 200, headers: { etag: '"def456"' } })
      expect(await store.put('clusters/a/HEAD', '{}', { ifMatch: 'abc123' })).toBe('def456')
      expect(await store.put('clusters/a/blobs/x', 'x')).toBe('def456')
      expect(wire.lastRequest().header('if-match')).toBeUndefined()
      expect(wire.lastRequest().header('if-none-match')).toBeUndefined()
    })

    it.each([
      [500, 'InternalError'],
      [403, 'AccessDenied'],
    ])("turns %i %s into a StorageError naming the operation, the key and S3's code, conditional or not", async (status, code) => {
      wire.reply({ status, code })
      for (const call of [store.put('clusters/a/HEAD', '{}', { ifNoneMatch: '*' }), store.put('clusters/a/HEAD', '{}')]) {
        const error = await storageError(call)
        expect(error).toMatchObject({ operation: 'put', key: 'clusters/a/HEAD' })
        expect(error.message).toMatch(new RegExp(`^storage put clusters/a/HEAD failed: .*${code} from the stand-in`))
        expect((error.cause as Error).name).toBe(code)
      }
      expect(await storageError(store.get('clusters/a/HEAD'))).toMatchObject({ operation: 'get', key: 'clusters/a/HEAD' })
    })
  })
}
