import { createServer } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import S3rver from 's3rver'
import type { S3ClientConfig } from '@aws-sdk/client-s3'
import { createS3Client } from '../../../functions/storage/s3-client.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'
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

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

export interface FakeReply {
  status: number
  /** S3's error code, answered as S3's XML error body; omitted for a success. */
  code?: string
  headers?: Record<string, string>
  /** Never answer, to make the client time out. */
  stall?: boolean
}

export interface FakeS3 extends RunningServer {
  requests: RecordedRequest[]
  /** What the next request gets. */
  reply(next: FakeReply): void
}

/** An S3 stand-in on loopback that records each request and answers what the test set, as S3 would on the wire. */
export async function startFakeS3(): Promise<FakeS3> {
  const requests: RecordedRequest[] = []
  let next: FakeReply = { status: 200 }
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      requests.push({ method: request.method!, url: request.url!, headers: request.headers })
      if (next.stall) return
      const body = next.code ? `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${next.code}</Code><Message>${next.code} from the fake</Message><RequestId>fake-1</RequestId></Error>` : ''
      response.writeHead(next.status, { 'content-type': 'application/xml', 'x-amz-request-id': 'fake-1', ...next.headers })
      response.end(body)
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
