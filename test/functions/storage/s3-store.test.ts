import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StorageError } from '../../../core/ports/object-store.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createS3Store } from '../../../functions/storage/s3-store.ts'
import { freePort } from '../../support/free-port.ts'
import { objectStoreContract } from '../../support/contracts/object-store-contract.ts'
import { loopbackClient, startFakeS3, startS3rver } from './s3-servers.ts'
import type { FakeS3 } from './s3-servers.ts'

// s3rver speaks real S3 HTTP to the real SDK, but ignores If-Match / If-None-Match: the contract's
// conditional cases therefore assert that they were ignored, and the fake below proves the CAS path.
objectStoreContract('s3 (s3rver 3.7.1, ignores conditional headers)', async () => {
  const server = await startS3rver('hapedge')
  const store = createS3Store({ client: loopbackClient(server.endpoint), bucket: 'hapedge', prefix: 'store/' })
  return { store, honoursConditions: false, cleanup: server.stop }
})

async function storageError(call: Promise<unknown>): Promise<StorageError> {
  const error = await call.then(() => undefined, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(StorageError)
  return error as StorageError
}

describe('s3 store on the wire, against a fake S3 that records requests and answers errors', () => {
  let fake: FakeS3
  let store: ObjectStore

  beforeAll(async () => {
    fake = await startFakeS3()
    store = createS3Store({ client: loopbackClient(fake.endpoint), bucket: 'hapedge', prefix: 'p/' })
  })
  afterAll(() => fake.stop())

  const lastRequest = () => fake.requests.at(-1)!

  it('sends If-None-Match: * for create-only, and reads 412 PreconditionFailed as a lost race', async () => {
    fake.reply({ status: 412, code: 'PreconditionFailed' })
    expect(await store.put('clusters/a/HEAD', '{}', { ifNoneMatch: '*' })).toBeUndefined()
    expect(lastRequest()).toMatchObject({ method: 'PUT', url: '/hapedge/p/clusters/a/HEAD?x-id=PutObject' })
    expect(lastRequest().headers['if-none-match']).toBe('*')
    expect(lastRequest().headers['if-match']).toBeUndefined()
  })

  it('sends If-Match with the quoted etag, and reads 409 ConditionalRequestConflict as a lost race', async () => {
    fake.reply({ status: 409, code: 'ConditionalRequestConflict' })
    expect(await store.put('clusters/a/HEAD', '{}', { ifMatch: 'abc123' })).toBeUndefined()
    expect(lastRequest().headers['if-match']).toBe('"abc123"')
    expect(lastRequest().headers['if-none-match']).toBeUndefined()
  })

  it('reads 404 NoSuchKey as a lost race for If-Match (the object is gone) and as missing for get', async () => {
    fake.reply({ status: 404, code: 'NoSuchKey' })
    expect(await store.put('clusters/a/HEAD', '{}', { ifMatch: 'abc123' })).toBeUndefined()
    expect(await store.get('clusters/a/HEAD')).toBeUndefined()
  })

  it('returns the new etag, unquoted, when the condition holds; an unconditional put sends no condition', async () => {
    fake.reply({ status: 200, headers: { etag: '"def456"' } })
    expect(await store.put('clusters/a/HEAD', '{}', { ifMatch: 'abc123' })).toBe('def456')
    expect(await store.put('clusters/a/blobs/x', 'x')).toBe('def456')
    expect(lastRequest().headers).not.toHaveProperty('if-match')
    expect(lastRequest().headers).not.toHaveProperty('if-none-match')
  })

  it.each([
    [500, 'InternalError'],
    [403, 'AccessDenied'],
  ])('turns %i %s into a StorageError naming the operation and key, conditional or not', async (status, code) => {
    fake.reply({ status, code })
    for (const call of [store.put('clusters/a/HEAD', '{}', { ifNoneMatch: '*' }), store.put('clusters/a/HEAD', '{}')]) {
      const error = await storageError(call)
      expect(error).toMatchObject({ operation: 'put', key: 'clusters/a/HEAD' })
      expect(error.message).toMatch(/^storage put clusters\/a\/HEAD failed: /)
      expect((error.cause as Error).name).toBe(code)
    }
    expect(await storageError(store.get('clusters/a/HEAD'))).toMatchObject({ operation: 'get', key: 'clusters/a/HEAD' })
  })

  it('turns a request that times out into a StorageError naming the key', async () => {
    fake.reply({ status: 200, stall: true })
    const impatient = createS3Store({ client: loopbackClient(fake.endpoint, { requestHandler: { requestTimeout: 200, throwOnRequestTimeout: true } }), bucket: 'hapedge' })
    expect(await storageError(impatient.get('clusters/a/HEAD'))).toMatchObject({ operation: 'get', key: 'clusters/a/HEAD' })
  })
})

it('turns an unreachable endpoint into a StorageError naming the key', async () => {
  const nobody = `http://127.0.0.1:${await freePort()}`
  const store = createS3Store({ client: loopbackClient(nobody), bucket: 'hapedge' })
  const error = await storageError(store.put('clusters/a/HEAD', '{}', { ifNoneMatch: '*' }))
  expect(error).toMatchObject({ operation: 'put', key: 'clusters/a/HEAD' })
  expect(error.message).toMatch(/ECONNREFUSED/)
})
