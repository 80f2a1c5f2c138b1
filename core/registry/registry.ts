import { isClusterId } from '../keys/cluster-keys.ts'
import type { HashText } from '../hash.ts'
import type { Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { clusterRecord, type ClusterRecord, type ClusterSettings } from './cluster-record.ts'
import { newToken, sameDigest } from './tokens.ts'

export const REGISTRY_PREFIX = 'registry/clusters/'
const decoder = new TextDecoder()

/** A record with the entity tag it was read at: what a compare-and-swap replaces. */
export interface VersionedRecord {
  record: ClusterRecord
  etag: string
}

export function parseRecord(body: Uint8Array): ClusterRecord {
  return clusterRecord.parse(JSON.parse(decoder.decode(body)))
}

/**
 * The registered clusters, one record each under `registry/clusters/<id>`, holding the sha256 of
 * the cluster's token: a reader of the bucket learns no token, and a token is checked by
 * hashing it and comparing digests in constant time. A record changes only by compare-and-swap
 * on the entity tag it was read at, so two admins' changes never overwrite each other unseen.
 */
export class Registry {
  /**
   * Per cluster, the record last read and the entity tag of the bytes it was parsed from. Every
   * read still asks storage, so a change another replica made is seen at once; only the parse
   * (a schema check of each field, most of what a token check cost) is skipped while the bytes are the same.
   */
  private readonly parsed = new Map<string, VersionedRecord>()

  constructor(
    private readonly store: ObjectStore,
    private readonly hash: HashText,
    private readonly clock: Clock,
  ) {}

  /** Registers a cluster; the token is returned once and never stored. Undefined when the id is taken. */
  async register(settings: ClusterSettings): Promise<{ record: ClusterRecord; token: string } | undefined> {
    const token = newToken(settings.id)
    const record: ClusterRecord = { ...settings, tokenSha256: this.hash(token), createdAt: this.clock.now().toISOString() }
    const created = await this.store.put(REGISTRY_PREFIX + record.id, `${JSON.stringify(record)}\n`, { ifNoneMatch: '*' })
    return created === undefined ? undefined : { record, token }
  }

  async read(id: string): Promise<VersionedRecord | undefined> {
    if (!isClusterId(id)) return undefined
    const stored = await this.store.get(REGISTRY_PREFIX + id)
    if (!stored) {
      this.parsed.delete(id)
      return undefined
    }
    const known = this.parsed.get(id)
    if (known?.etag === stored.etag) return known
    // Frozen: every reader shares it, so a change is made to a copy (and stored by replace).
    const read = { record: Object.freeze(parseRecord(stored.body)), etag: stored.etag }
    this.parsed.set(id, read)
    return read
  }

  async get(id: string): Promise<ClusterRecord | undefined> {
    return (await this.read(id))?.record
  }

  async list(): Promise<ClusterRecord[]> {
    const records: ClusterRecord[] = []
    for await (const object of this.store.list(REGISTRY_PREFIX)) {
      const record = await this.get(object.key.slice(REGISTRY_PREFIX.length))
      if (record) records.push(record)
    }
    return records
  }

  /** Writes `record` in place of the version read at `etag`; false when it changed since. */
  async replace(record: ClusterRecord, etag: string): Promise<boolean> {
    return (await this.store.put(REGISTRY_PREFIX + record.id, `${JSON.stringify(record)}\n`, { ifMatch: etag })) !== undefined
  }

  /**
   * A new token for the cluster, returned once; the current one stays valid for `overlapSeconds`
   * more, so agents can be given the new one without downtime. Only one previous token is kept:
   * rotating again ends the older one's overlap at once. Undefined when the record changed since read.
   */
  async rotateToken({ record, etag }: VersionedRecord, overlapSeconds: number): Promise<{ record: ClusterRecord; token: string } | undefined> {
    const token = newToken(record.id)
    const previousTokenExpiresAt = new Date(this.clock.now().getTime() + overlapSeconds * 1000).toISOString()
    const rotated: ClusterRecord = { ...record, tokenSha256: this.hash(token), previousTokenSha256: record.tokenSha256, previousTokenExpiresAt }
    return (await this.replace(rotated, etag)) ? { record: rotated, token } : undefined
  }

  /** Marks the cluster removed: its token is refused from now, its data purged after `graceSeconds`. Undefined when the record changed since read. */
  async remove({ record, etag }: VersionedRecord, graceSeconds: number): Promise<ClusterRecord | undefined> {
    const now = this.clock.now()
    const removed: ClusterRecord = { ...record, removedAt: now.toISOString(), purgeAfter: new Date(now.getTime() + graceSeconds * 1000).toISOString() }
    return (await this.replace(removed, etag)) ? removed : undefined
  }

  /** Whether `token` is this cluster's: its current token, or the previous one within its overlap; never a removed cluster's. */
  authenticates(record: ClusterRecord, token: string): boolean {
    if (record.removedAt !== undefined) return false
    const digest = this.hash(token)
    // Both digests are compared whatever the first answer, so timing does not tell which token matched.
    const current = sameDigest(digest, record.tokenSha256)
    const previous = sameDigest(digest, record.previousTokenSha256 ?? '')
    const overlapping = record.previousTokenExpiresAt !== undefined && this.clock.now().getTime() < Date.parse(record.previousTokenExpiresAt)
    return current || (previous && overlapping)
  }
}
