import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { sha256Text } from '../../../core/hash.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { CorruptObject } from '../../../core/reading/errors.ts'
import { isCompressedBody, nodeBody, nodeText } from '../../../core/tree/node-body.ts'
import { utf8Length } from '../../../core/tree/tree-shape.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { runs } from '../../support/property-runs.ts'

const encoder = new TextEncoder()
const keys = clusterKeys('prod-eu')

describe('a node as stored', () => {
  it('reads back as its text, whether the text was gzipped or stored as it is', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 40 }), async (line, times) => {
        const text = line.repeat(times)
        const body = await nodeBody(text)
        expect(await nodeText(typeof body === 'string' ? encoder.encode(body) : body)).toBe(text)
      }),
      { numRuns: runs(50) },
    )
  })

  it('is gzipped when that is shorter, and a body that is text is never taken for gzip', async () => {
    const text = `${JSON.stringify(['object\u0001Ingress/default/app', '{"kind":"Ingress"}'])}\n`.repeat(30)
    const body = await nodeBody(text)
    expect(body).toBeInstanceOf(Uint8Array)
    expect((body as Uint8Array).byteLength).toBeLessThan(utf8Length(text) / 4)
    // Text a body could hold that starts as gzip does (0x1f), then anything UTF-8 allows.
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (rest) => {
        expect(isCompressedBody(encoder.encode(`\u001f${rest}`))).toBe(false)
      }),
    )
  })

  it('is committed gzipped under the sha256 of its text, so a cold reader verifies it as before', async () => {
    const store = createMemoryStore()
    const objects = Array.from({ length: 30 }, (_, n) => app(n)).flat()
    const committed = await commitEvents({ store, cluster: 'prod-eu', options: {}, context: coldContext(), clock: instantClock() }, objects.map(added))
    let gzipped = 0
    for await (const { key } of store.list(`${keys.root}nodes/`)) {
      const body = (await store.get(key))!.body
      if (isCompressedBody(body)) gzipped++
      expect(sha256Text(await nodeText(body))).toBe(key.slice(key.lastIndexOf('/') + 1))
    }
    expect(gzipped).toBeGreaterThan(committed.written.nodes / 2)
  })

  it('is refused with its key when it is gzip that does not decompress, or not UTF-8 text once decompressed', async () => {
    const store = createMemoryStore()
    const text = 'x'.repeat(500)
    const gzipped = (await nodeBody(text)) as Uint8Array
    const truncated = sha256Text(text)
    await store.put(keys.node('nodes', truncated), gzipped.slice(0, gzipped.length - 9))
    const notText = sha256Text('y')
    const latin1 = new Uint8Array(
      await new Response(new Blob([new Uint8Array([0xff, 0xfe, 0xfd])]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer(),
    )
    await store.put(keys.node('nodes', notText), latin1)
    const loader = new NodeLoader(store, keys, coldContext())
    const refusal = (sha256: string) => loader.load([{ space: 'nodes', sha256 }]).catch((error: unknown) => error)
    expect(await refusal(truncated)).toMatchObject({
      name: CorruptObject.name,
      key: keys.node('nodes', truncated),
      message: expect.stringMatching(/gzip that does not decompress/),
    })
    expect(await refusal(notText)).toMatchObject({
      name: CorruptObject.name,
      key: keys.node('nodes', notText),
      message: expect.stringMatching(/gzip of something other than UTF-8 text/),
    })
  })
})
