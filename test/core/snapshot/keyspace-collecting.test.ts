import { describe, expect, it } from 'vitest'
import { Keyspace } from '../../../core/snapshot/keyspace.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { TABLE } from '../../../core/snapshot/tables.ts'

/** The keyspace's pending writes collected step by step: the steps taken, and the edits. */
function collected(keyspace: Keyspace): { steps: number; edits: ReadonlyMap<string, string | undefined> } {
  const collecting = keyspace.collecting()
  let steps = 0
  for (let step = collecting.next(); ; step = collecting.next(), steps++) if (step.done) return { steps, edits: step.value }
}

describe('Keyspace.collecting', () => {
  it('takes many small writes a step, in key order: a full resync has about 140,000, and a step each cost more than their JSON', () => {
    const keyspace = Keyspace.inMemory()
    const objects = keyspace.table<{ name: string }>(TABLE.object)
    const byHost = keyspace.index(TABLE.hostIngresses)
    for (let i = 9_999; i >= 0; i--) {
      objects.set(`Ingress/ns/i${i}`, { name: `i${i}` })
      byHost.add(`h${i % 100}.example.com`, `ns/i${i}`)
    }
    const { steps, edits } = collected(keyspace)
    expect(edits.size).toBe(20_000)
    expect(steps).toBeGreaterThan(0)
    expect(steps).toBeLessThan(200)
    expect([...edits.keys()]).toEqual([...edits.keys()].sort())
    expect(edits.get(`${TABLE.object}${SEPARATOR}Ingress/ns/i42`)).toBe('{"name":"i42"}')
    expect(edits.get(`${TABLE.hostIngresses}${SEPARATOR}h42.example.com${SEPARATOR}ns/i42`)).toBe('')
  })

  it('ends a step at 32 KiB of JSON, however few the writes', () => {
    const keyspace = Keyspace.inMemory()
    const objects = keyspace.table<{ text: string }>(TABLE.object)
    for (let i = 0; i < 64; i++) objects.set(`Ingress/ns/i${i}`, { text: 'x'.repeat(8_192) })
    // Four values of 8 KiB fill a step: 16 steps, the last ending with the writes.
    expect(collected(keyspace).steps).toBe(16)
  })
})
