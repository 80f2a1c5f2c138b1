import { z } from 'zod'
import type { ClusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'

const key = (keys: ClusterKeys) => `${keys.root}gateway-status-written`

/** The generation whose Gateway API status the function's writer wrote without a failure, and to which API server (a digest of the sealed credentials). */
const written = z.object({ generation: z.number().int().min(1), credentials: z.string() })

export type GatewayStatusWritten = z.infer<typeof written>

/**
 * Where the function's writer left off, kept in storage so that a new process (a Worker's
 * isolate, a Lambda's cold start, a restarted server) writes what changed since, not every
 * object again. Unreadable is as unknown: the status is written whole, which is always right.
 */
export async function readGatewayStatusWritten(store: ObjectStore, keys: ClusterKeys): Promise<GatewayStatusWritten | undefined> {
  const stored = await store.get(key(keys))
  if (!stored) return undefined
  try {
    return written.parse(JSON.parse(new TextDecoder().decode(stored.body)))
  } catch {
    return undefined
  }
}

/** Best effort: a record not stored costs the next process a whole write, nothing else. */
export async function storeGatewayStatusWritten(store: ObjectStore, keys: ClusterKeys, record: GatewayStatusWritten): Promise<void> {
  await store.put(key(keys), JSON.stringify(record)).catch(() => undefined)
}
