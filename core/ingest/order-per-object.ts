import { compareResourceVersions } from '../incremental/resource-version.ts'

const DECIMAL = /^[1-9]\d{0,19}$/

/** A translated change, with what orders it among the batch's other changes to the same object. */
export interface Ordered<T> {
  value: T
  objectKey: string
  deleted: boolean
  /** The object's resourceVersion after this change, or, for a deletion, the last one before it. */
  version?: string
  uid?: string
}

interface Rank {
  version: string
  /** A deletion comes after a write at the same version: it ends the life the write belongs to. */
  deletion: boolean
}

/**
 * The batch's changes in item order, except that the changes to one object are put in
 * resourceVersion order among the places they hold: the webhook sends an event when its request
 * completes, not when its write committed, so two writes to one object can come reversed. The
 * versions are ordered only within the batch, the items one API server reported together; batches
 * apply in the order they arrive, whatever their versions (a restored etcd counts again from an
 * older revision, and a far-future version must not outrank every later write). A
 * deletion known only by name (a `Status` answer) has no version; it is ranked after the writes
 * to the same uid, since a uid's life ends with its deletion. Changes with no rank keep their place.
 */
export function orderPerObject<T>(changes: readonly Ordered<T>[]): T[] {
  const ordered = [...changes]
  const places = new Map<string, number[]>()
  for (const [index, change] of changes.entries()) places.set(change.objectKey, [...(places.get(change.objectKey) ?? []), index])
  for (const indexes of places.values()) {
    if (indexes.length < 2) continue
    const group = indexes.map((index) => changes[index]!)
    const ranks = ranksOf(group)
    const rankedPlaces = indexes.filter((_, position) => ranks[position])
    const ranked = group.map((change, position) => ({ change, rank: ranks[position] })).filter((entry) => entry.rank)
    ranked.sort((a, b) => compareRanks(a.rank!, b.rank!))
    rankedPlaces.forEach((place, position) => (ordered[place] = ranked[position]!.change))
  }
  return ordered.map((change) => change.value)
}

function ranksOf<T>(group: readonly Ordered<T>[]): (Rank | undefined)[] {
  const lastWriteOfUid = new Map<string, string>()
  for (const { version, uid } of group) {
    if (!uid || !version || !DECIMAL.test(version)) continue
    const last = lastWriteOfUid.get(uid)
    if (!last || compareResourceVersions(version, last) > 0) lastWriteOfUid.set(uid, version)
  }
  return group.map(({ version, uid, deleted }) => {
    const known = version && DECIMAL.test(version) ? version : deleted && uid ? lastWriteOfUid.get(uid) : undefined
    return known ? { version: known, deletion: deleted } : undefined
  })
}

function compareRanks(a: Rank, b: Rank): number {
  return compareResourceVersions(a.version, b.version) || Number(a.deletion) - Number(b.deletion)
}
