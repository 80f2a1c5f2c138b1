import { sha256Text } from '../../../core/hash.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import type { Clock } from '../../../core/ports/clock.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import type { TreeContext } from '../../../core/tree/tree.ts'
import { endpointSlice, ingress, service } from '../objects.ts'

/** A fresh process: an empty node cache, as a cold function starts. */
export const coldContext = (): TreeContext => ({ nodes: new NodeCache(), hash: sha256Text })

/** A clock that does not wait, so retries and leases run at test speed. */
export const instantClock = (start = Date.parse('2026-12-03T00:00:00Z')): Clock & { advance(ms: number): void } => {
  let now = start
  let seed = 1
  return {
    now: () => new Date(now),
    sleep: async (ms) => void (now += ms),
    random: () => (seed = (seed * 48271) % 0x7fffffff) / 0x7fffffff,
    advance: (ms) => void (now += ms),
  }
}

export const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
export const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })
export const deleted = (object: unknown): WatchEvent => ({ type: 'DELETED', object: object as Record<string, unknown> })

/** The objects of a small app `n`: an Ingress on its own host, its Service and endpoints. */
export function app(n: number, paths = ['/']) {
  const name = `app-${n}`
  return [
    ingress({ name, rules: [{ host: `${name}.example.com`, paths: paths.map((path) => ({ path, service: name })) }] }),
    service(name, [{ port: 80 }]),
    endpointSlice(name, [`10.0.${Math.floor(n / 250)}.${(n % 250) + 1}`]),
  ]
}
