import type { ObjectStore } from '../ports/object-store.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import { CorruptObject } from './errors.ts'
import { generationRecord, type GenerationRecord } from './head.ts'

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
