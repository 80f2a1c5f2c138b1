import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the Gateway API conformance echo (echo-basic) answers: the request as it arrived, and who answered. */
export interface ConformanceEcho {
  /** The request target as received, query included. */
  path: string
  host: string
  method: string
  /** Every header by lower-case name, each line kept apart (headersDistinct). */
  headers: Record<string, string[]>
  namespace: string
  /** `<Service>-<n>`: the suite compares by prefix, as the conformance suite does with its Deployments' pods. */
  pod: string
}

export interface EchoServer {
  host: string
  port: number
  /** Whether a request for this target (query included) has reached it: echo-basic logs each one, which the suite reads for RequestMirror. */
  received(path: string): boolean
  close(): Promise<void>
}

/** The header echo-basic reads for response headers to set: `Name:value` pairs, comma-separated. */
export const ECHO_SET_HEADER = 'x-echo-set-header'

/**
 * A loopback server answering every request with 200 and a JSON ConformanceEcho, standing for
 * one Service's pods. Like echo-basic, it sets the response headers `X-Echo-Set-Header` asks for,
 * so a test can see what a ResponseHeaderModifier does to headers its backend sent, and it waits
 * as long as a `delay` query parameter says (`1s`, `500ms`) before it answers, for timeouts.
 */
export async function startConformanceEcho(service: string, namespace: string): Promise<EchoServer> {
  const received = new Set<string>()
  const server = createServer((req, res) => {
    received.add(req.url ?? '')
    req.resume()
    req.on('end', async () => {
      await delayAsked(req.url ?? '')
      for (const pair of (req.headersDistinct[ECHO_SET_HEADER] ?? []).flatMap((line) => line.split(','))) {
        const [name, ...value] = pair.trim().split(':')
        if (name) res.appendHeader(name, value.join(':').trim())
      }
      const echo: ConformanceEcho = {
        path: req.url ?? '',
        host: req.headers.host ?? '',
        method: req.method ?? '',
        headers: req.headersDistinct as Record<string, string[]>,
        namespace,
        pod: `${service}-0`,
      }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(echo))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    received: (path) => received.has(path),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

/** echo-basic's `?delay=`: seconds or milliseconds. */
function delayAsked(target: string): Promise<void> {
  const delay = new URL(target, 'http://echo').searchParams.get('delay')
  const match = delay?.match(/^(\d+)(ms|s)$/)
  const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : 0
  return ms ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}
