import { describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../../core/ports/object-store.ts'
import { fairStore } from '../../../../functions/adapters/storage/fair-store.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { objectStoreContract } from '../../../support/contracts/object-store-contract.ts'

objectStoreContract('fair (taking turns between clusters, over memory)', async () => ({ store: fairStore(createMemoryStore(), 2), honoursConditions: true }))

/** A store whose puts finish only when the test says, recording the order they started in. */
function gatedStore() {
  const inner = createMemoryStore()
  const started: string[] = []
  const gates: (() => void)[] = []
  let open = false
  const store: ObjectStore = {
    ...inner,
    put: (key, body, condition) => {
      started.push(key)
      const gate = open ? Promise.resolve() : new Promise<void>((resolve) => gates.push(resolve))
      return gate.then(() => inner.put(key, body, condition))
    },
  }
  /** From now on every put goes through at once, and those waiting go too. */
  const openAll = () => {
    open = true
    for (const release of gates.splice(0)) release()
  }
  return { store, started, openAll }
}

describe('fairStore', () => {
  it('serves a quiet cluster’s write after the operations in flight and one turn of the busy cluster, not after its whole burst', async () => {
    const { store, started, openAll } = gatedStore()
    const fair = fairStore(store, 2)
    const burst = Array.from({ length: 20 }, (_, i) => fair.put(`clusters/noisy/blobs/${i}`, 'x'))
    const quiet = fair.put('clusters/quiet/blobs/q', 'y')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(started).toEqual(['clusters/noisy/blobs/0', 'clusters/noisy/blobs/1'])
    openAll()
    await Promise.all([...burst, quiet])
    // The two already running, at most one more turn of the noisy cluster, then the quiet write: not the 21st.
    expect(started.indexOf('clusters/quiet/blobs/q')).toBeLessThanOrEqual(3)
    expect(started).toHaveLength(21)
  })

  it('passes failures through and keeps serving the queue', async () => {
    const inner = createMemoryStore()
    const failing: ObjectStore = { ...inner, get: async (key) => (key.endsWith('bad') ? Promise.reject(new Error('disk on fire')) : inner.get(key)) }
    const fair = fairStore(failing, 1)
    await fair.put('clusters/a/blobs/ok', 'fine')
    const [bad, ok] = await Promise.allSettled([fair.get('clusters/a/blobs/bad'), fair.get('clusters/a/blobs/ok')])
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'disk on fire' } })
    expect(ok.status === 'fulfilled' && new TextDecoder().decode(ok.value!.body)).toBe('fine')
  })
})
