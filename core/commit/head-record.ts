import { systemClock, type Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import { CorruptObject } from '../reading/errors.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import { recordOf } from './record-generation.ts'
import type { GenerationRecord, Head } from '../reading/head.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
import { planBetween } from './plan-between.ts'

/**
 * A commit writes its generation's record after HEAD moves, so a crash between the two leaves HEAD
 * naming a generation without one. HEAD then holds all the record needs but the plan and the files
 * changed, which its manifest and its parent's give, as they give a rollback's: the record is made
 * again from HEAD. Whatever moves HEAD past its generation (a commit, a rollback or release) does
 * so first, since afterwards nothing names that generation's snapshot, and so does the collector
 * before it may delete the parent; readers of the history do too, so no hole shows meanwhile.
 */
export async function ensureHeadRecord(
  store: ObjectStore,
  keys: ClusterKeys,
  head: Head,
  loader: NodeLoader,
  context: TreeContext,
  clock: Clock = systemClock,
): Promise<void> {
  if (recorded.get(context) === recordName(keys, head)) return
  if (!(await store.head(keys.generation(head.generation)))) await writeFromHead(store, keys, head, loader, context, clock)
  else noteRecorded(context, keys, head)
}

/**
 * Per node cache (one cluster's, in one process): the generation whose record this process last
 * wrote or found. A record is never deleted while HEAD names its generation, so the next commit
 * from the same HEAD need not ask storage again.
 */
const recorded = new WeakMap<TreeContext, string>()

const recordName = (keys: ClusterKeys, head: Head) => `${keys.generation(head.generation)} ${head.manifest}`

/** Notes that HEAD's generation has its record in storage (written or found by this process). */
export function noteRecorded(context: TreeContext, keys: ClusterKeys, head: Head): void {
  recorded.set(context, recordName(keys, head))
}

/** HEAD's generation's record: as its commit wrote it, or made again from HEAD (and written) when a crash kept it from being written. */
export async function headRecord(
  store: ObjectStore,
  keys: ClusterKeys,
  head: Head,
  loader: NodeLoader,
  context: TreeContext,
  clock: Clock = systemClock,
): Promise<GenerationRecord> {
  return (await readGenerationRecord(store, keys, head.generation)) ?? (await writeFromHead(store, keys, head, loader, context, clock))
}

async function writeFromHead(
  store: ObjectStore,
  keys: ClusterKeys,
  head: Head,
  loader: NodeLoader,
  context: TreeContext,
  clock: Clock,
): Promise<GenerationRecord> {
  const record = recordOf(head, await changeFromParent(head, loader, context), clock)
  // Created only: a record its commit wrote meanwhile stays (it says the same, with the engine's own plan).
  await store.put(keys.generation(head.generation), `${JSON.stringify(record)}\n`, { ifNoneMatch: '*' })
  noteRecorded(context, keys, head)
  return record
}

/** The files and plan from HEAD's parent to HEAD; from nothing when the parent's objects are gone (a full reload). */
async function changeFromParent(head: Head, loader: NodeLoader, context: TreeContext) {
  try {
    return await planBetween(head.parent ?? undefined, head.manifest, loader, context)
  } catch (error) {
    if (!(error instanceof CorruptObject) || head.parent === null) throw error
    return planBetween(undefined, head.manifest, loader, context)
  }
}
