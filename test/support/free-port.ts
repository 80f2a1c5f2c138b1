import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

/** Asks the kernel for an unused TCP port on `host` and releases it again. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo
      server.close((error) => (error ? reject(error) : resolve(port)))
    })
  })
}
