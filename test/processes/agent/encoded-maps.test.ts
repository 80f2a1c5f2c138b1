import { describe, expect, it } from 'vitest'
import { mapSplice, splicedText } from '../../../core/reading/spliced-map.ts'
import { utf8Length } from '../../../core/tree/tree-shape.ts'
import { EncodedMaps } from '../../../processes/agent/encoded-maps.ts'

const root = (text: string) => ({ sha256: 'x', level: 1, count: text.split('\n').length - 1, weight: utf8Length(text) })
const line = (key: string) => `${key} be_${key}\n`
const encode = (text: string) => new TextEncoder().encode(text)
const MAP = 'maps/hosts.map'

/** The next text of a map with `key`'s line added where it sorts, and how the splice makes it of `before`. */
function added(before: string, key: string) {
  const parts = mapSplice(before, [{ key, after: line(key) }], root(before), root(`${before}${line(key)}`))!
  return { after: splicedText(before, parts), parts }
}

/** An agent's maps with one splice of the map `first` installed: the maps, the map's text then, and the bytes written. */
function installedOnce(first: string, key: string) {
  const maps = new EncodedMaps()
  const next = added(first, key)
  const bytes = maps.bytesFor(MAP, next.after, first, next.parts)
  maps.installed(new Map([[MAP, next.after]]))
  return { maps, text: next.after, bytes }
}

const FIRST = `${line('b.test/')}${line('d.test/')}`

describe('the bytes of the maps an agent installs', () => {
  it('are the UTF-8 of each next text, encoded whole the first time, then spliced from the bytes kept', () => {
    const { maps, text, bytes } = installedOnce(FIRST, 'c.test/')
    expect(bytes).toEqual(encode(text))
    const third = added(text, 'e.test/')
    expect(maps.bytesFor(MAP, third.after, text, third.parts)).toEqual(encode(third.after))
  })

  it('splices only the bytes of the very text a splice starts from', () => {
    const { maps, text } = installedOnce(FIRST, 'c.test/')
    // Another text of the same length: the bytes kept are not its, and spliced with its parts they would be wrong.
    const other = `${line('b.test/')}${line('f.test/')}${line('d.test/')}`
    expect(other.length).toBe(text.length)
    const next = added(other, 'e.test/')
    expect(maps.bytesFor(MAP, next.after, other, next.parts)).toEqual(encode(next.after))
  })

  it('writes each splice to the memory of the bytes two installs back, never to the bytes it splices from', () => {
    const maps = new EncodedMaps()
    // Long enough that the room a splice's memory has to grow holds the lines added after it.
    let text = Array.from({ length: 300 }, (_, n) => line(`x${String(n).padStart(3, '0')}.test/`)).join('')
    const memories: ArrayBufferLike[] = []
    for (const key of ['a.test/', 'c.test/', 'e.test/', 'f.test/', 'g.test/']) {
      const next = added(text, key)
      const bytes = maps.bytesFor(MAP, next.after, text, next.parts)
      expect(bytes).toEqual(encode(next.after))
      maps.installed(new Map([[MAP, next.after]]))
      memories.push(bytes.buffer)
      text = next.after
    }
    // The first is encoded whole; from the second on, two memories take turns.
    expect(new Set(memories.slice(1)).size).toBe(2)
    expect(memories[3]).toBe(memories[1])
    expect(memories[4]).toBe(memories[2])
  })

  it('leaves the bytes kept whole when the generation spliced from them is not installed', () => {
    const { maps, text } = installedOnce(FIRST, 'c.test/')
    const third = added(text, 'e.test/')
    maps.bytesFor(MAP, third.after, text, third.parts)
    // Refused: the generation installed stays the second, and the next splice starts from it again.
    const other = added(text, 'a.test/')
    expect(maps.bytesFor(MAP, other.after, text, other.parts)).toEqual(encode(other.after))
    maps.installed(new Map([[MAP, other.after]]))
    const last = added(other.after, 'z.test/')
    expect(maps.bytesFor(MAP, last.after, other.after, last.parts)).toEqual(encode(last.after))
  })
})
