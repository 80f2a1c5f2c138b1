import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** An HTTP server on loopback that keeps every request it receives: a mirror's copies, as its pod's log would show them. */

export interface Copy {
  method: string
  url: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A Service endpoint that keeps every request it receives, answering 200. */
export interface Recorder {
  server: Server
  copies: Copy[]
  port: number
}

export async function startRecorder(host = '127.0.0.1'): Promise<Recorder> {
  const copies: Copy[] = []
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      copies.push({ method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks).toString() })
      response.end('recorded')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return { server, copies, port: (server.address() as AddressInfo).port }
}

/** A loopback port nothing listens on: a mirror that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Stops a recorder's server (or nothing, when it never started). */
export const closeRecorder = (server: Server | undefined) => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
