import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3Store } from '../../../../functions/adapters/storage/s3-store.ts'
import { startConditionalS3Double } from '../../../support/conditional-s3-double.ts'
import { commitProtocolContract } from '../../../support/contracts/commit-contract.ts'
import { freePort } from '../../../support/free-port.ts'
import { objectStoreContract } from '../../../support/contracts/object-store-contract.ts'
import { s3WireContract } from '../../../support/contracts/s3-wire-contract.ts'
import { storageError } from '../../../support/contracts/storage-error.ts'
import { loopbackClient, startFakeS3, startS3rver } from './s3-servers.ts'
import type { FakeS3 } from './s3-servers.ts'

// s3rver speaks real S3 HTTP to the real SDK, but ignores If-Match / If-None-Match: the contract's
// conditional cases therefore assert that they were ignored, and the wire cases prove the CAS path.
objectStoreContract('s3 (s3rver 3.7.1, ignores conditional headers)', async () => {
  const server = await startS3rver('hapedge')
  const store = createS3Store({ client: loopbackClient(server.endpoint), bucket: 'hapedge', prefix: 'store/' })
  return { store, honoursConditions: false, cleanup: server.stop }
})

s3WireContract('a node:http stand-in on loopback', async () => {
  const fake = await startFakeS3()
  return {
    store: createS3Store({ client: loopbackClient(fake.endpoint), bucket: 'hapedge', prefix: 'p/' }),
    reply: fake.reply,
    lastRequest: () => fake.requests.at(-1)!,
    cleanup: fake.stop,
  }
})

describe('s3 store when the service does not answer', () => {
  let fake: FakeS3
  beforeAll(async () => {
    fake = await startFakeS3()
  })
  afterAll(() => fake.stop())

  it('turns a request that times out into a StorageError naming the key', async () => {
    fake.reply({ status: 200, stall: true })
    const client = loopbackClient(fake.endpoint, { requestHandler: { requestTimeout: 200, throwOnRequestTimeout: true } })
    const error = await storageError(createS3Store({ client, bucket: 'hapedge' }).get('clusters/a/HEAD'))
    expect(error).toMatchObject({ operation: 'get', key: 'clusters/a/HEAD' })
    expect(error.message).toMatch(/requestTimeout/)
  })

  it('turns an unreachable endpoint into a StorageError naming the key', async () => {
    const store = createS3Store({ client: loopbackClient(`http://127.0.0.1:${await freePort()}`), bucket: 'hapedge' })
    const error = await storageError(store.put('clusters/a/HEAD', '{}', { ifNoneMatch: '*' }))
    expect(error).toMatchObject({ operation: 'put', key: 'clusters/a/HEAD' })
    expect(error.message).toMatch(/ECONNREFUSED/)
  })
})

// The double that honours conditions, on which several `hapedge serve` processes share a bucket (test/e2e/serve-replicas.test.ts).
objectStoreContract('s3 (the conditional S3 double on loopback)', async () => {
  const double = await startConditionalS3Double({ buckets: ['hapedge'] })
  const store = createS3Store({ client: loopbackClient(double.endpoint), bucket: 'hapedge', prefix: 'store/' })
  return { store, honoursConditions: true, cleanup: double.stop }
})

commitProtocolContract('s3 (the conditional S3 double on loopback)', async () => {
  const double = await startConditionalS3Double({ buckets: ['hapedge'] })
  return { store: createS3Store({ client: loopbackClient(double.endpoint), bucket: 'hapedge', prefix: 'store/' }), cleanup: double.stop }
})
