import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createR2Store } from '../../functions/adapters/storage/r2-store.ts'
import { objectStoreContract } from '../support/contracts/object-store-contract.ts'

objectStoreContract('r2 (workerd, local R2 through the STORE binding)', async () => ({ store: createR2Store({ bucket: env.STORE }), honoursConditions: true }))

describe("R2's onlyIf, as the store relies on it", () => {
  const run = Date.now().toString(36)

  it('refuses a create-only put of an existing key, written as etagDoesNotMatch "*" or as a Headers If-None-Match: *', async () => {
    const bucket = env.STORE
    const forms = { object: { etagDoesNotMatch: '*' }, headers: new Headers({ 'If-None-Match': '*' }) }
    for (const [form, onlyIf] of Object.entries(forms)) {
      const key = `only-if/${run}/create/${form}`
      // The declared binding takes the object form only; the runtime takes a Headers too.
      const put = (body: string) => bucket.put(key, body, { onlyIf: onlyIf as { etagDoesNotMatch: string } })
      expect((await put('first'))?.etag, form).toEqual(expect.any(String))
      expect(await put('second'), form).toBeNull()
      expect(new TextDecoder().decode(await (await bucket.get(key))!.arrayBuffer()), form).toBe('first')
    }
  })

  it('takes etagMatches as the bare etag (a quoted one is a TypeError) and refuses it for a missing key', async () => {
    const bucket = env.STORE
    const first = (await bucket.put(`only-if/${run}/replace`, 'v1'))!
    await expect(bucket.put(`only-if/${run}/replace`, 'v2', { onlyIf: { etagMatches: `"${first.etag}"` } })).rejects.toThrow(/should not be wrapped in quotes/)
    expect(await bucket.put(`only-if/${run}/replace`, 'v2', { onlyIf: { etagMatches: first.etag } })).not.toBeNull()
    expect(await bucket.put(`only-if/${run}/missing`, 'v1', { onlyIf: { etagMatches: first.etag } })).toBeNull()
  })
})
