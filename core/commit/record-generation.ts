import type { Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import type { GenerationRecord, Head } from '../reading/head.ts'
import type { Plan } from '../plan/plan.ts'

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
  return { ...served, committedAt: head.committedAt ?? clock.now().toISOString(), plan: recordedPlan(made.plan), files: [...made.files].sort() }
}

/**
 * The plan as a record keeps it: a reload takes every file whole, so its runtime changes are
 * applied by no one (an agent compares files, plan-from-files.ts), and a build into an empty
 * cluster has one per map entry, 150,000 at 20,000 Ingresses, which made its record 15 MB.
 */
function recordedPlan(plan: Plan): GenerationRecord['plan'] {
  if (!plan.reload) return plan
  return { reload: true, reasons: plan.reasons, maps: [], servers: [], certificates: [] }
}
