import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface NamedBackendSpec {
  name: string
  host?: string
  /** Omit (or 0) to let the kernel pick a free port. */
  port?: number
}

export interface NamedBackend {
  name: string
  host: string
  port: number
  /** `host:port`, ready to drop into an HAProxy `server` line. */
  address: string
  /** Number of requests answered so far. */
  readonly requests: number
  close(): Promise<void>
}

/** The JSON body every named backend answers with (except for HEAD). */
export interface BackendEcho {
  backend: string
  method: string
  path: string
  host: string | undefined
  headers: Record<string, string | string[] | undefined>
}

/**
 * Starts a loopback HTTP server that answers every request with 200 and a JSON
 * echo naming itself, so tests can tell which backend HAProxy routed to.
 * Any 127.0.0.0/8 address works on Linux, so several backends may share a port.
 */
export async function startNamedBackend(spec: NamedBackendSpec): Promise<NamedBackend> {
  const { name, host = '127.0.0.1', port = 0 } = spec
  let requests = 0

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests += 1
    // Drain the request body so keep-alive connections stay usable.
    req.resume()
    req.on('end', () => {
      res.setHeader('x-backend', name)
      if (req.method === 'HEAD') {
        res.writeHead(200)
        res.end()
        return
      }
      const echo: BackendEcho = {
        backend: name,
        method: req.method ?? '',
        path: req.url ?? '',
        host: req.headers.host,
        headers: req.headers,
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(echo))
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const boundPort = (server.address() as AddressInfo).port

  return {
    name,
    host,
    port: boundPort,
    address: `${host}:${boundPort}`,
    get requests() {
      return requests
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Without this, idle keep-alive connections from HAProxy hold close() open.
        server.closeAllConnections()
      }),
  }
}

/** Starts several named backends in parallel. */
export function startNamedBackends(specs: NamedBackendSpec[]): Promise<NamedBackend[]> {
  return Promise.all(specs.map(startNamedBackend))
}
