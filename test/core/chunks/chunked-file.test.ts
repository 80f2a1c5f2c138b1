import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChunkedFile } from '../../../core/chunks/chunked-file.ts'
import { compareText } from '../../../core/model/routes.ts'

const chunksOf = (file: ChunkedFile) => file.chunkList.map((chunk) => chunk.entries.map((entry) => entry.key))

describe('ChunkedFile', () => {
  it('after any sequence of sets and deletes, equals a one-pass cut of the final entries', () => {
    const op = fc.record({ key: fc.stringMatching(/^[a-e]{1,4}$/), text: fc.option(fc.constantFrom('1', '2', '3'), { nil: undefined }) })
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.constantFrom(2, 4, 8), (ops, perChunk) => {
        const file = new ChunkedFile(perChunk)
        const final = new Map<string, string>()
        for (const { key, text } of ops) {
          file.set(key, text === undefined ? undefined : `${key}=${text}\n`)
          if (text === undefined) final.delete(key)
          else final.set(key, `${key}=${text}\n`)
        }
        const sorted = [...final].sort(([a], [b]) => compareText(a, b)).map(([key, text]) => ({ key, text }))
        const rebuilt = ChunkedFile.fromSorted(perChunk, sorted)
        expect(chunksOf(file)).toEqual(chunksOf(rebuilt))
        expect(file.text).toBe(sorted.map((entry) => entry.text).join(''))
        expect(file.chunkList.every((chunk) => chunk.entries.length > 0)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('rewrites one chunk for a one-key change in a large file, and keeps every other chunk object', () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => `host-${String(i).padStart(6, '0')}.example.com`).map((key) => ({ key, text: `${key} backend\n` }))
    const file = ChunkedFile.fromSorted(32, entries)
    const before = new Set(file.chunkList)
    file.set('host-010000.example.com', 'host-010000.example.com other\n')
    const changed = file.chunkList.filter((chunk) => !before.has(chunk))
    expect(changed).toHaveLength(1)
    expect(changed[0]!.entries.length).toBeLessThan(400)
    expect(file.chunkList.length).toBeGreaterThan(300)
  })
})
