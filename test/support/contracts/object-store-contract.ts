import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { casIncrement, readCounter } from './cas-counter.ts'
import { firstDifference, noise } from './test-bytes.ts'

export interface ContractSubject {
  store: ObjectStore
  /**
   * False for a server that ignores If-Match / If-None-Match (s3rver): the conditional cases
   * then assert that the condition was ignored, so they say what this run did not prove.
   */
  honoursConditions: boolean
  /**
   * The size `head` and `list` report for a body of `bytes` bytes, when the store keeps more
   * than it was given (a sealing decorator adds its envelope; `get` still answers the body's size).
   */
  storedSize?(bytes: number): number
  cleanup?(): Promise<void>
}

const SLOW = 60_000
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function collect(store: ObjectStore, prefix: string) {
  const listed = []
  for await (const object of store.list(prefix)) listed.push(object)
  return listed
}

/**
 * The ObjectStore port's contract, declared as vitest cases for one implementation. It imports
 * only vitest and project files, so it runs in Node and inside workerd alike.
 */
export function objectStoreContract(name: string, setup: () => Promise<ContractSubject>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let subject: ContractSubject
    let store: ObjectStore
    let cases = 0
    // Each case writes under its own prefix, so cases sharing one store never see each other.
    const scope = () => `contract/${++cases}-${Date.now().toString(36)}/`

    const stored = (bytes: number) => subject.storedSize?.(bytes) ?? bytes

    beforeAll(async () => {
      subject = await setup()
      store = subject.store
    }, SLOW)
    afterAll(async () => subject?.cleanup?.(), SLOW)

    it('answers undefined for get and head of a missing key', async () => {
      const key = `${scope()}missing`
      expect(await store.get(key)).toBeUndefined()
      expect(await store.head(key)).toBeUndefined()
    })

    it('returns the bytes put, binary, empty or UTF-8 text, with the etag head reports', async () => {
      const at = scope()
      const binary = Uint8Array.from({ length: 256 }, (_, i) => 255 - i)
      const utf8 = 'héllo — 世界 🎉\n\u0000end'
      const bodies: [string, Uint8Array | string, Uint8Array][] = [
        [`${at}binary`, binary, binary],
        [`${at}empty`, new Uint8Array(0), new Uint8Array(0)],
        [`${at}text`, utf8, new TextEncoder().encode(utf8)],
      ]
      for (const [key, body, bytes] of bodies) {
        const etag = await store.put(key, body)
        expect(etag).toEqual(expect.any(String))
        const got = await store.get(key)
        expect(got?.body).toBeInstanceOf(Uint8Array)
        expect(firstDifference(got!.body, bytes)).toBe(-1)
        expect(got).toMatchObject({ etag, size: bytes.length })
        expect(await store.head(key)).toEqual({ etag, size: stored(bytes.length) })
      }
      expect(text((await store.get(`${at}text`))!.body)).toBe(utf8)
    })

    it('gives an overwrite a new etag', async () => {
      const key = `${scope()}object`
      const first = await store.put(key, 'one')
      const second = await store.put(key, 'two')
      expect(second).not.toBe(first)
      expect((await store.head(key))?.etag).toBe(second)
      expect(text((await store.get(key))!.body)).toBe('two')
    })

    it('lists exactly the keys under a prefix, in UTF-8 byte order, with sizes', async () => {
      const at = scope()
      // '\uff5e' sorts before '😀' in UTF-8 bytes but after it in UTF-16 code units.
      const inside = ['a/b/1', 'a/b/Z', 'a/b/deep/x', 'a/b/z', 'a/b/é', 'a/b/\uff5e', 'a/b/😀']
      const sibling = ['a/bc/1', 'a/b-1', 'b/1']
      for (const key of [...sibling, ...inside].reverse()) await store.put(`${at}${key}`, key)
      const listed = await collect(store, `${at}a/b/`)
      expect(listed.map((object) => object.key)).toEqual(inside.map((key) => `${at}${key}`))
      for (const object of listed) {
        expect(object.size).toBe(stored(new TextEncoder().encode(object.key.slice(at.length)).length))
        expect(object.lastModified).toBeInstanceOf(Date)
      }
      const partial = (await collect(store, `${at}a/b`)).map((object) => object.key.slice(at.length))
      expect(partial).toEqual(['a/b-1', ...inside, 'a/bc/1'])
      expect(await collect(store, `${at}nothing/`)).toEqual([])
    })

    it(
      'lists and deletes past one page of a thousand keys',
      async () => {
        const at = scope()
        const keys = Array.from({ length: 1050 }, (_, i) => `${at}${String(i).padStart(4, '0')}`)
        for (let start = 0; start < keys.length; start += 50) await Promise.all(keys.slice(start, start + 50).map((key) => store.put(key, '')))
        expect((await collect(store, at)).map((object) => object.key)).toEqual(keys)
        await store.delete(keys)
        expect(await collect(store, at)).toEqual([])
      },
      SLOW,
    )

    it('deletes keys, and deleting missing keys is no error', async () => {
      const at = scope()
      await store.put(`${at}x`, 'x')
      await store.put(`${at}y`, 'y')
      await store.delete([`${at}x`, `${at}never-written`])
      expect(await store.get(`${at}x`)).toBeUndefined()
      expect((await collect(store, at)).map((object) => object.key)).toEqual([`${at}y`])
      await store.delete([])
      await store.delete([`${at}x`])
    })

    it(
      'round-trips a large object (8 MiB and a bit) byte-exact',
      async () => {
        const key = `${scope()}large`
        const body = noise(8 * 1024 * 1024 + 123)
        const etag = await store.put(key, body)
        const got = await store.get(key)
        expect(got?.size).toBe(body.length)
        expect(firstDifference(got!.body, body)).toBe(-1)
        expect(got?.etag).toBe(etag)
      },
      SLOW,
    )

    describe('conditional puts', () => {
      const honours = () => subject.honoursConditions
      const when = (honoured: string, ignored: string) => `${honoured} — or, on a server that ignores conditions, ${ignored}`

      it(when('creates only once with ifNoneMatch *', 'states that a second create-only put also succeeds'), async () => {
        const key = `${scope()}create-only`
        expect(await store.put(key, 'first', { ifNoneMatch: '*' })).toEqual(expect.any(String))
        const second = await store.put(key, 'second', { ifNoneMatch: '*' })
        if (honours()) {
          expect(second).toBeUndefined()
          expect(text((await store.get(key))!.body)).toBe('first')
        } else {
          expect(second, 'this server ignores If-None-Match: the second create-only put overwrote').toEqual(expect.any(String))
          expect(text((await store.get(key))!.body)).toBe('second')
        }
      })

      it(when('replaces with ifMatch only the version read', 'states that a stale ifMatch also writes'), async () => {
        const key = `${scope()}replace`
        const first = (await store.put(key, 'v1'))!
        const second = await store.put(key, 'v2', { ifMatch: first })
        expect(second).toEqual(expect.any(String))
        const stale = await store.put(key, 'v3', { ifMatch: first })
        if (honours()) {
          expect(stale).toBeUndefined()
          expect(await store.get(key)).toMatchObject({ etag: second })
          expect(await store.put(`${key}-missing`, 'x', { ifMatch: first })).toBeUndefined()
          expect(await store.head(`${key}-missing`)).toBeUndefined()
        } else {
          expect(stale, 'this server ignores If-Match: a put with a stale etag overwrote').toEqual(expect.any(String))
          expect(text((await store.get(key))!.body)).toBe('v3')
        }
      })

      it(
        when('loses no update among 20 concurrent CAS increments', 'states that 20 writers holding one stale etag all win'),
        async () => {
          const key = `${scope()}counter`
          if (honours()) {
            const attempts = await Promise.all(Array.from({ length: 20 }, () => casIncrement(store, key)))
            expect(await readCounter(store, key)).toBe(20)
            expect(
              attempts.some((count) => count > 1),
              'the writers really raced',
            ).toBe(true)
          } else {
            // One after another: such a server may also fail concurrent writes of one key outright.
            const read = (await store.put(key, '0'))!
            for (let i = 1; i <= 20; i++) expect(await store.put(key, String(i), { ifMatch: read }), 'this server ignores If-Match').toEqual(expect.any(String))
            expect(await readCounter(store, key)).toBe(20)
          }
        },
        SLOW,
      )

      it(
        when('lets exactly one of 10 concurrent create-only puts win', 'states that 10 create-only puts all succeed'),
        async () => {
          const key = `${scope()}race`
          if (honours()) {
            const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.put(key, `writer ${i}`, { ifNoneMatch: '*' })))
            const winners = results.flatMap((etag, i) => (etag ? [i] : []))
            expect(winners).toHaveLength(1)
            expect(text((await store.get(key))!.body)).toBe(`writer ${winners[0]}`)
          } else {
            for (let i = 0; i < 10; i++)
              expect(await store.put(key, `writer ${i}`, { ifNoneMatch: '*' }), 'this server ignores If-None-Match').toEqual(expect.any(String))
            expect(text((await store.get(key))!.body)).toBe('writer 9')
          }
        },
        SLOW,
      )
    })
  })
}
