import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * Ports are handed out below the kernel's ephemeral range (32768–60999 on Linux), which no
 * `listen(0)` and no outgoing connection takes from, and each vitest worker (`VITEST_POOL_ID`)
 * has a block of its own, so two test files running at once are never handed the same port.
 * Asking the kernel for a port and releasing it let that happen: an HAProxy whose port another
 * file's server bound first exited on its failed bind, while the start's readiness check had
 * already connected to that server, and every request of the file then hung up.
 */
const FIRST_PORT = 10_000
const BLOCK_SIZE = 1_000
const BLOCKS = 22

/** The next port to try in this worker's block: from a random start, as another vitest run on the machine has the same blocks. */
let cursor = Math.floor(Math.random() * BLOCK_SIZE)

/** A TCP port on `host` that nothing listens on now, and that no other worker of this run is handed. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const pool = Number(process.env.VITEST_POOL_ID)
  if (!Number.isInteger(pool) || pool < 1) return (await listenOn(0, host))!
  const block = FIRST_PORT + ((pool - 1) % BLOCKS) * BLOCK_SIZE
  for (let tried = 0; tried < BLOCK_SIZE; tried++) {
    const port = block + (cursor++ % BLOCK_SIZE)
    if ((await listenOn(port, host)) !== undefined) return port
  }
  throw new Error(`no free port on ${host} in ${block}–${block + BLOCK_SIZE - 1} (vitest worker ${pool})`)
}

/** Binds `port` (0: the kernel's choice) and releases it: the port bound, or undefined when it is taken. */
function listenOn(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' && port !== 0 ? resolve(undefined) : reject(error)))
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port
      server.close((error) => (error ? reject(error) : resolve(bound)))
    })
  })
}
