import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { freePort } from './free-port.ts'

const listening = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })

describe('freePort', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('hands each vitest worker ports of its own block, below the ephemeral range, never the same one twice in a row', async () => {
    vi.stubEnv('VITEST_POOL_ID', '3')
    const ports = [await freePort(), await freePort(), await freePort()]
    for (const port of ports) expect(port).toBeGreaterThanOrEqual(12_000)
    for (const port of ports) expect(port).toBeLessThan(13_000)
    expect(new Set(ports).size).toBe(3)
    vi.stubEnv('VITEST_POOL_ID', '4')
    const other = await freePort()
    expect(other).toBeGreaterThanOrEqual(13_000)
    expect(other).toBeLessThan(14_000)
  })

  it('skips a port something listens on', async () => {
    vi.stubEnv('VITEST_POOL_ID', '5')
    const first = await freePort()
    // The next port of the block is taken: the one after it comes.
    const next = first + 1 < 15_000 ? first + 1 : 14_000
    const holder = await listening(next)
    try {
      const port = await freePort()
      expect(port).not.toBe(next)
      expect(port).not.toBe(first)
      const server = await listening(port)
      server.close()
    } finally {
      holder.close()
    }
  })

  it('asks the kernel outside vitest workers: a port of its ephemeral range', async () => {
    vi.stubEnv('VITEST_POOL_ID', '')
    const [lowest, highest] = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).trim().split(/\s+/).map(Number)
    const port = await freePort()
    expect(port).toBeGreaterThanOrEqual(lowest!)
    expect(port).toBeLessThanOrEqual(highest!)
    ;(await listening(port)).close()
  })
})
