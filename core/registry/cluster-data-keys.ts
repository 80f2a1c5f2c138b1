import type { Sealer } from '../crypto/sealer.ts'
import type { Clock } from '../ports/clock.ts'
import type { Registry } from './registry.ts'

export interface ClusterDataKeysOptions {
  /** How long a cluster's key is used before its record is read again (default 60 s). */
  ttlMs?: number
  /** Attempts at adding a key to a record that keeps changing meanwhile (default 5). */
  attempts?: number
}

/**
 * Each cluster's data key, from its registry record's wrapped `dataKey`, unwrapped by the
 * Sealer. A record without one (registered before the deployment had a secret) is given one by
 * compare-and-swap, so every cluster ends up sealed; two processes racing to add one both end
 * up with the winner's. No record: undefined (nothing is sealed for an unregistered cluster).
 * Keys are cached per cluster for `ttlMs`: a record's key never changes while it exists
 * (rewrapping keeps the same key), so the time bounds only how long a process keeps the key of
 * a cluster that was purged and registered again.
 */
export class ClusterDataKeys {
  private readonly cache = new Map<string, { until: number; key: Promise<CryptoKey | undefined> }>()
  private readonly ttlMs: number
  private readonly attempts: number

  constructor(
    private readonly registry: Registry,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    options: ClusterDataKeysOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000
    this.attempts = options.attempts ?? 5
  }

  readonly keyOf = (cluster: string): Promise<CryptoKey | undefined> => {
    const now = this.clock.now().getTime()
    const cached = this.cache.get(cluster)
    if (cached && cached.until > now) return cached.key
    const key = this.resolve(cluster)
    const entry = { until: now + this.ttlMs, key }
    this.cache.set(cluster, entry)
    // A failure is not kept: the next call tries again.
    key.catch(() => {
      if (this.cache.get(cluster) === entry) this.cache.delete(cluster)
    })
    return key
  }

  private async resolve(cluster: string): Promise<CryptoKey | undefined> {
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      const read = await this.registry.read(cluster)
      if (!read) return undefined
      if (read.record.dataKey) return this.sealer.dataKey(read.record.dataKey)
      const dataKey = await this.sealer.createClusterKey()
      if (await this.registry.replace({ ...read.record, dataKey }, read.etag)) return this.sealer.dataKey(dataKey)
    }
    throw new Error(`cluster ${cluster}: its record changed under ${this.attempts} attempts in a row to give it a data key`)
  }
}
