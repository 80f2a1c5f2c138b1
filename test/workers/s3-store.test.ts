import { afterAll, vi } from 'vitest'
import { createS3Client } from '../../functions/adapters/storage/s3-client.ts'
import { createS3Store } from '../../functions/adapters/storage/s3-store.ts'
import { s3ErrorXml, s3WireContract } from '../support/contracts/s3-wire-contract.ts'
import type { WireReply } from '../support/contracts/s3-wire-contract.ts'

// The SDK's browser build, as Workers bundle it, sends through fetch; a stub stands in for S3 here,
// so that the error paths (XML bodies, which this build parses with the DOMParser workerd lacks) run in workerd.
s3WireContract('workerd, fetch answered by a stub', async () => {
  const requests: Request[] = []
  let next: WireReply = { status: 200 }
  const stub = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    requests.push(new Request(input, init))
    return new Response(next.code ? s3ErrorXml(next.code) : null, { status: next.status, headers: { 'content-type': 'application/xml', ...next.headers } })
  })
  afterAll(() => stub.mockRestore())
  const client = createS3Client({
    endpoint: 'https://s3.stand-in.test',
    region: 'auto',
    forcePathStyle: true,
    credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    maxAttempts: 1,
  })
  return {
    store: createS3Store({ client, bucket: 'hapedge', prefix: 'p/' }),
    reply: (reply) => void (next = reply),
    lastRequest() {
      const request = requests.at(-1)!
      const url = new URL(request.url)
      return { method: request.method, path: url.pathname + url.search, header: (name) => request.headers.get(name) ?? undefined }
    },
  }
})
