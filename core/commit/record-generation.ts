import type { Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import type { GenerationRecord, Head } from '../reading/head.ts'

/**
 * After HEAD moved: the generation's record (its plan, for agents that skip generations; its
 * files and origin for people; retention for GC). A failure is a warning: the commit stands, and
 * the record is made again from HEAD before anything moves HEAD on (`ensureHeadRecord`).
 */
export async function recordGeneration(
  store: ObjectStore,
  keys: ClusterKeys,
  head: Head,
  made: Pick<GenerationRecord, 'plan' | 'files'>,
  clock: Clock,
): Promise<string[]> {
  try {
    await store.put(keys.generation(head.generation), `${JSON.stringify(recordOf(head, made, clock))}\n`)
    return []
  } catch (error) {
    return [`generation ${head.generation} is committed, but its record was not written: ${(error as Error).message}`]
  }
}

/** HEAD's generation's record: HEAD without its pin and hold, when it was made, and how HAProxy takes it. */
export function recordOf(head: Head, made: Pick<GenerationRecord, 'plan' | 'files'>, clock: Clock): GenerationRecord {
  const { pin: _pin, collecting: _collecting, ...served } = head
  return { ...served, committedAt: head.committedAt ?? clock.now().toISOString(), plan: made.plan, files: [...made.files].sort() }
}
