import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { CommandError } from './command-error.ts'

export interface ListenAdvice {
  /** The flag that chooses the port, and the one that chooses the address (`--port`, `--host`; the agent's `--listen` for both). */
  portFlag: string
  hostFlag: string
  /** Who most likely holds the port already: `another hapedge serve?`. */
  usualHolder: string
}

/**
 * Serves `fetch` on host:port once the socket is bound. What stops the bind is a CommandError
 * that says what to change (a port in use, one that needs privileges, an address that is not
 * this machine's) instead of an unhandled 'error' event and its stack.
 */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  { host, port }: { host: string; port: number },
  advice: ListenAdvice,
): Promise<{ server: ServerType; address: AddressInfo }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }, (address) => {
      server.off('error', refused)
      resolve({ server, address })
    })
    const refused = (error: NodeJS.ErrnoException) => reject(explain(error, host, port, advice))
    server.once('error', refused)
  })
}

function explain(error: NodeJS.ErrnoException, host: string, port: number, { portFlag, hostFlag, usualHolder }: ListenAdvice): Error {
  const where = `port ${port} on ${host}`
  switch (error.code) {
    case 'EADDRINUSE':
      return new CommandError(`${where} is in use (${usualHolder}); choose another with ${portFlag}`)
    case 'EACCES':
      return new CommandError(`${where} needs privileges this process lacks; choose one above 1023 with ${portFlag}`)
    case 'EADDRNOTAVAIL':
      return new CommandError(`${host} is not an address of this machine; choose one with ${hostFlag} (127.0.0.1, or 0.0.0.0 for every interface)`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CommandError(`${host} does not resolve to an address; choose one with ${hostFlag}`)
    default:
      return error
  }
}
