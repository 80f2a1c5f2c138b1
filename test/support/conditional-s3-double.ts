import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buffer } from 'node:stream/consumers'
import type { ObjectStore, PutCondition } from '../../core/ports/object-store.ts'
import { createMemoryStore } from '../../functions/adapters/storage/memory-store.ts'
import { s3ErrorXml } from './contracts/s3-wire-contract.ts'

/**
 * A double of an S3 server on loopback that honours If-Match and If-None-Match, which s3rver
 * ignores: several `hapedge serve` processes on one bucket need HEAD's compare-and-swap to hold
 * across them. It speaks the path-style REST calls the S3 store makes (GET, HEAD and PUT of an
 * object, ListObjectsV2, DeleteObjects) over one memory store per bucket, whose conditional put
 * is a real compare-and-swap, and nothing else (501). It does not check signatures.
 */
export interface ConditionalS3Double {
  endpoint: string
  /** A bucket's objects as the double keeps them (full keys, prefix included), for a test to inspect. */
  bucket(name: string): ObjectStore
  /** Requests answered, by method, and as `PUT refused` the puts whose condition failed: what a run cost in S3 calls, and how many races were lost. */
  requests: Map<string, number>
  stop(): Promise<void>
}

export interface DoubleOptions {
  buckets: readonly string[]
  /** Answers every conditional put as if the condition held, as s3rver and S3 before 2024 did. */
  ignoreConditions?: boolean
}

const LIST_PAGE = 1000
const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&')

/** The condition the request's headers ask for (a bare etag: S3 quotes them). */
function conditionOf(request: IncomingMessage): PutCondition | undefined {
  const ifMatch = request.headers['if-match']
  if (ifMatch) return { ifMatch: ifMatch.replace(/^"|"$/g, '') }
  return request.headers['if-none-match'] === '*' ? { ifNoneMatch: '*' } : undefined
}

export async function startConditionalS3Double(options: DoubleOptions): Promise<ConditionalS3Double> {
  const buckets = new Map(options.buckets.map((name) => [name, createMemoryStore()]))
  const requests = new Map<string, number>()

  const fail = (response: ServerResponse, status: number, code: string) => {
    response.writeHead(status, { 'content-type': 'application/xml' })
    response.end(s3ErrorXml(code))
  }

  async function answer(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(request.url!, 'http://double')
    const [bucketName = '', ...keyParts] = url.pathname.slice(1).split('/')
    const store = buckets.get(decodeURIComponent(bucketName))
    if (!store) return fail(response, 404, 'NoSuchBucket')
    const key = decodeURIComponent(keyParts.join('/'))
    const method = request.method!

    if (key === '' && method === 'GET' && url.searchParams.get('list-type') === '2') return list(store, url, response)
    if (key === '' && method === 'POST' && url.searchParams.has('delete')) {
      const keys = [...body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => unescapeXml(match[1]!))
      await store.delete(keys)
      response.writeHead(200, { 'content-type': 'application/xml' })
      return void response.end(`${XML_HEADER}<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></DeleteResult>`)
    }
    if (key === '') return fail(response, 501, 'NotImplemented')

    if (method === 'PUT') {
      if (String(request.headers['x-amz-content-sha256']).startsWith('STREAMING-')) return fail(response, 501, 'NotImplemented')
      const condition = options.ignoreConditions ? undefined : conditionOf(request)
      const etag = await store.put(key, new Uint8Array(body), condition)
      if (etag === undefined) {
        requests.set('PUT refused', (requests.get('PUT refused') ?? 0) + 1)
        // S3 answers 404 to If-Match on a key that is gone, 412 to every other failed condition.
        const gone = condition && 'ifMatch' in condition && !(await store.head(key))
        return gone ? fail(response, 404, 'NoSuchKey') : fail(response, 412, 'PreconditionFailed')
      }
      response.writeHead(200, { etag: `"${etag}"` })
      return void response.end()
    }
    if (method === 'GET' || method === 'HEAD') {
      const stored = method === 'GET' ? await store.get(key) : await store.head(key)
      if (!stored) {
        if (method === 'HEAD') return void response.writeHead(404).end()
        return fail(response, 404, 'NoSuchKey')
      }
      response.writeHead(200, { etag: `"${stored.etag}"`, 'content-length': String(stored.size), 'content-type': 'application/octet-stream' })
      return void response.end('body' in stored ? Buffer.from(stored.body as Uint8Array) : undefined)
    }
    return fail(response, 501, 'NotImplemented')
  }

  async function list(store: ObjectStore, url: URL, response: ServerResponse): Promise<void> {
    const prefix = url.searchParams.get('prefix') ?? ''
    const token = url.searchParams.get('continuation-token')
    const after = token ? Buffer.from(token, 'base64url').toString('utf8') : undefined
    const max = Math.min(Number(url.searchParams.get('max-keys') ?? LIST_PAGE) || LIST_PAGE, LIST_PAGE)
    const page: string[] = []
    let truncated = false
    let last = ''
    for await (const object of store.list(prefix)) {
      if (after !== undefined && object.key <= after) continue
      if (page.length === max) {
        truncated = true
        break
      }
      const stored = await store.head(object.key)
      last = object.key
      page.push(
        `<Contents><Key>${escapeXml(object.key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified>` +
          `<ETag>"${stored?.etag ?? ''}"</ETag><Size>${object.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
      )
    }
    response.writeHead(200, { 'content-type': 'application/xml' })
    response.end(
      `${XML_HEADER}<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(url.pathname.slice(1))}</Name>` +
        `<Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        `${truncated ? `<NextContinuationToken>${Buffer.from(last).toString('base64url')}</NextContinuationToken>` : ''}${page.join('')}</ListBucketResult>`,
    )
  }

  const server = createServer((request, response) => {
    requests.set(request.method!, (requests.get(request.method!) ?? 0) + 1)
    buffer(request)
      .then((body) => answer(request, response, body))
      .catch((error: Error) => {
        if (!response.headersSent) fail(response, 500, 'InternalError')
        else response.destroy(error)
      })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: (name) => {
      const store = buckets.get(name)
      if (!store) throw new Error(`the double has no bucket ${name}`)
      return store
    },
    requests,
    stop() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
