import type { Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import { CorruptObject } from './errors.ts'
import { generationRecord, type GenerationRecord, type Head } from './head.ts'

const decoder = new TextDecoder()

/** Generation `n`'s record, or undefined when it was never written or is no longer retained; CorruptObject when it is not a record. */
export async function readGenerationRecord(store: ObjectStore, keys: ClusterKeys, n: number): Promise<GenerationRecord | undefined> {
  const key = keys.generation(n)
  const stored = await store.get(key)
  if (!stored) return undefined
  try {
    return generationRecord.parse(JSON.parse(decoder.decode(stored.body)))
  } catch (error) {
    throw new CorruptObject(key, `not a generation record: ${(error as Error).message.slice(0, 200)}`)
  }
}

/** The numbers of the generations whose records are kept, newest first. */
export async function retainedGenerations(store: ObjectStore, keys: ClusterKeys): Promise<number[]> {
  const numbers: number[] = []
  for await (const object of store.list(keys.generations)) {
    const n = Number(object.key.slice(keys.generations.length))
    if (Number.isInteger(n) && n > 0) numbers.push(n)
  }
  return numbers.sort((a, b) => b - a)
}

/**
 * After HEAD moved: the generation's record (its plan, for agents that skip generations; its
 * files and origin for people; retention for GC). A failure is a warning: the commit stands, and
 * the record is made again from HEAD before anything moves HEAD on (`ensureHeadRecord`).
 */
export async function recordGeneration(store: ObjectStore, keys: ClusterKeys, head: Head, made: Pick<GenerationRecord, 'plan' | 'files'>, clock: Clock): Promise<string[]> {
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
