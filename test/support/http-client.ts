import { request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { TLSSocket } from 'node:tls'

export interface RequestOptions {
  method?: string
  /** Sent as given; a `host` entry overrides the Host header derived from the URL. */
  headers?: OutgoingHttpHeaders
  body?: string | Buffer
  /** TLS SNI name, independent of the URL host and the Host header. */
  servername?: string
  /** Trusted CA(s). Without one, the server certificate is not verified. */
  ca?: string | Buffer | Array<string | Buffer>
  /** A client certificate and its key (PEM), offered when the server asks for one. */
  cert?: string
  key?: string
  /** Milliseconds before the request is aborted; default 10 s. */
  timeoutMs?: number
}

export interface TlsPeer {
  subjectCN: string | undefined
  /** Node's format, e.g. `DNS:a.test, DNS:*.b.test`. */
  subjectAltName: string | undefined
}

export interface HttpResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
  json(): any
  /** Present for https URLs only. */
  tlsPeer: TlsPeer | undefined
}

/**
 * One request on a fresh connection (agent: false), no redirect following.
 * Uses node:http(s) rather than fetch so tests control Host, SNI and any method.
 */
export function request(url: string, options: RequestOptions = {}): Promise<HttpResponse> {
  const target = new URL(url)
  const isHttps = target.protocol === 'https:'
  const { method = 'GET', headers = {}, body, servername, ca, cert, key, timeoutMs = 10_000 } = options

  const requestHeaders: OutgoingHttpHeaders = { ...headers }
  if (body !== undefined && !hasHeader(requestHeaders, 'content-length')) {
    requestHeaders['content-length'] = Buffer.byteLength(body)
  }

  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage) => {
      // Read the peer certificate now: the socket may be gone once the body ends.
      const tlsPeer = isHttps ? peerOf(res.socket as TLSSocket) : undefined
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json: () => JSON.parse(text),
          tlsPeer,
        })
      })
    }

    const common = {
      method,
      hostname: target.hostname,
      port: target.port || (isHttps ? 443 : 80),
      path: `${target.pathname}${target.search}`,
      headers: requestHeaders,
      agent: false as const,
      timeout: timeoutMs,
    }
    const req = isHttps
      ? httpsRequest(
          {
            ...common,
            // An empty servername disables SNI entirely, which tests may want.
            ...(servername !== undefined ? { servername } : {}),
            ...(ca !== undefined ? { ca } : { rejectUnauthorized: false }),
            ...(cert !== undefined ? { cert, key } : {}),
          },
          onResponse,
        )
      : httpRequest(common, onResponse)

    req.on('timeout', () => req.destroy(new Error(`request to ${url} timed out after ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end(body)
  })
}

function hasHeader(headers: OutgoingHttpHeaders, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name)
}

function peerOf(socket: TLSSocket): TlsPeer {
  const cert = socket.getPeerCertificate()
  const cn = cert.subject?.CN
  return {
    subjectCN: Array.isArray(cn) ? cn[0] : cn,
    subjectAltName: cert.subjectaltname,
  }
}
