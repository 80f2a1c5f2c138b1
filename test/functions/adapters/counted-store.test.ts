import { describe, expect, it } from 'vitest'
import { CountedStore } from '../../../functions/adapters/storage/counted-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'

describe('CountedStore', () => {
  it('counts each call as one operation and each list page of up to 1,000 keys as one, and passes every answer through', async () => {
    const store = new CountedStore(createMemoryStore())
    await store.put('a', 'text')
    expect(new TextDecoder().decode((await store.get('a'))!.body)).toBe('text')
    expect(await store.head('missing')).toBeUndefined()
    await store.delete(['a', 'b'])
    expect(store.operations).toBe(4)
    for (let n = 0; n < 2_500; n++) await store.put(`many/${String(n).padStart(4, '0')}`, '')
    const listed: string[] = []
    for await (const { key } of store.list('many/')) listed.push(key)
    expect(listed).toHaveLength(2_500)
    expect(store.operations).toBe(4 + 2_500 + 3)
    for await (const _ of store.list('none/')) throw new Error('nothing is listed')
    expect(store.operations).toBe(4 + 2_500 + 4)
  })
})
