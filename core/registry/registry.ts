import { isClusterId } from '../commit/cluster-keys.ts'
import type { HashText } from '../hash.ts'
import type { Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { clusterRecord, type ClusterRecord, type ClusterSettings } from './cluster-record.ts'
import { newToken, sameDigest } from './tokens.ts'

const PREFIX = 'registry/clusters/'
const decoder = new TextDecoder()

/**
 * The registered clusters, one record each under `registry/clusters/<id>`, holding the sha256 of
 * the cluster's token: a reader of the bucket learns no token, and a token is checked by
 * hashing it and comparing digests in constant time.
 */
export class Registry {
  constructor(
    private readonly store: ObjectStore,
    private readonly hash: HashText,
    private readonly clock: Clock,
  ) {}

  /** Registers a cluster; the token is returned once and never stored. Undefined when the id is taken. */
  async register(settings: ClusterSettings): Promise<{ record: ClusterRecord; token: string } | undefined> {
    const token = newToken(settings.id)
    const record: ClusterRecord = { ...settings, tokenSha256: this.hash(token), createdAt: this.clock.now().toISOString() }
    const created = await this.store.put(PREFIX + record.id, `${JSON.stringify(record)}\n`, { ifNoneMatch: '*' })
    return created === undefined ? undefined : { record, token }
  }

  async get(id: string): Promise<ClusterRecord | undefined> {
    if (!isClusterId(id)) return undefined
    const stored = await this.store.get(PREFIX + id)
    return stored && clusterRecord.parse(JSON.parse(decoder.decode(stored.body)))
  }

  async list(): Promise<ClusterRecord[]> {
    const records: ClusterRecord[] = []
    for await (const object of this.store.list(PREFIX)) {
      const record = await this.get(object.key.slice(PREFIX.length))
      if (record) records.push(record)
    }
    return records
  }

  /** Whether `token` is this cluster's. */
  authenticates(record: ClusterRecord, token: string): boolean {
    return sameDigest(this.hash(token), record.tokenSha256)
  }
}
