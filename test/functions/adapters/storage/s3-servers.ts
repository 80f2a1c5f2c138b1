import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import S3rver from 's3rver'
import type { S3ClientConfig } from '@aws-sdk/client-s3'
import { createS3Client } from '../../../../functions/adapters/storage/s3-client.ts'
import { s3ErrorXml } from '../../../support/contracts/s3-wire-contract.ts'
import type { WireReply, WireRequest } from '../../../support/contracts/s3-wire-contract.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'
import { mendS3rver } from './s3rver-mends.ts'

export interface RunningServer {
  endpoint: string
  stop(): Promise<void>
}

/** A client for a server on loopback: path-style URLs, fake credentials, one attempt (a test wants the first answer). */
export function loopbackClient(endpoint: string, config: S3ClientConfig = {}) {
  return createS3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    maxAttempts: 1,
    ...config,
  })
}

/** s3rver on a free loopback port, storing in a fresh temp dir, with `bucket` created and its two S3 deviations mended. */
export async function startS3rver(bucket: string): Promise<RunningServer> {
  const directory = await makeTempDir('hapedge-s3rver')
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] })
  mendS3rver(server.store)
  const { port } = await server.run()
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      await server.close()
      await removeTempDir(directory)
    },
  }
}

export interface FakeS3 extends RunningServer {
  requests: WireRequest[]
  /** What the next request gets; `stall` never answers, so that the client times out. */
  reply(next: WireReply & { stall?: boolean }): void
}

/** An S3 stand-in on loopback that records each request and answers what the test set, as S3 would on the wire. */
export async function startFakeS3(): Promise<FakeS3> {
  const requests: WireRequest[] = []
  let next: WireReply & { stall?: boolean } = { status: 200 }
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      const { headers } = request
      requests.push({ method: request.method!, path: request.url!, header: (name) => headers[name] as string | undefined })
      if (next.stall) return
      response.writeHead(next.status, { 'content-type': 'application/xml', ...next.headers })
      response.end(next.code ? s3ErrorXml(next.code) : '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    reply: (reply) => void (next = reply),
    stop() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
