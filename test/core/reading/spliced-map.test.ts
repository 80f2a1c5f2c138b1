import { describe, expect, it } from 'vitest'
import { mapSplice, splicedBytes, splicedText } from '../../../core/reading/spliced-map.ts'
import { utf8Length } from '../../../core/tree/tree-shape.ts'

/** The root a map's chunk tree has for this text: only its count (lines) and weight (UTF-8 bytes) matter here. */
const root = (text: string) => ({ sha256: 'x', level: 1, count: text.split('\n').length - 1, weight: utf8Length(text) })
const lines = (...keys: string[]) => keys.map((key) => `${key} be_${key}\n`).join('')
const line = (key: string, value = `be_${key}`) => `${key} ${value}\n`

describe('a map spliced from its text before and the lines that changed', () => {
  const before = lines('b.test/', 'd.test/', 'f.test/', 'h.test/')

  it('adds before the first line, between lines and after the last; changes and removes lines in place', () => {
    const after = `${line('a.test/')}${line('b.test/')}${line('d.test/', 'be_new')}${line('e.test/')}${line('h.test/')}${line('z.test/')}`
    const changes = [
      { key: 'a.test/', after: line('a.test/') },
      { key: 'd.test/', before: line('d.test/'), after: line('d.test/', 'be_new') },
      { key: 'e.test/', after: line('e.test/') },
      { key: 'f.test/', before: line('f.test/') },
      { key: 'z.test/', after: line('z.test/') },
    ]
    expect(splicedText(before, mapSplice(before, changes, root(before), root(after))!)).toBe(after)
  })

  it('counts UTF-8 bytes, not code units, against the trees', () => {
    const after = `${before}${line('ü.test/')}`
    expect(splicedText(before, mapSplice(before, [{ key: 'ü.test/', after: line('ü.test/') }], root(before), root(after))!)).toBe(after)
  })

  it('gives nothing, for the file to be read whole, when the text before is not the tree before', () => {
    const after = `${before}${line('z.test/')}`
    const add = [{ key: 'z.test/', after: line('z.test/') }]
    // Another text of the same size, one whose size differs, a line removed that is not as it was, a line added that is there.
    expect(mapSplice(before.replace('f.test/', 'g.test/'), [{ key: 'f.test/', before: line('f.test/') }], root(before), root(after))).toBeUndefined()
    expect(mapSplice(`${before}\n`, add, root(before), root(after))).toBeUndefined()
    expect(
      mapSplice(before, [{ key: 'd.test/', before: line('d.test/', 'be_old') }], root(before), root(lines('b.test/', 'f.test/', 'h.test/'))),
    ).toBeUndefined()
    expect(mapSplice(before, [{ key: 'd.test/', after: line('d.test/') }], root(before), root(`${before}${line('d.test/')}`))).toBeUndefined()
    // The trees after say another size or line count than the splice makes.
    expect(mapSplice(before, add, root(before), root(`${after}${line('zz.test/')}`))).toBeUndefined()
  })
})

describe("a spliced map's bytes, made from the bytes before", () => {
  const before = lines('b.test/', 'd.test/', 'f.test/', 'h.test/')
  const encode = (text: string) => new TextEncoder().encode(text)

  it('copies the ranges kept and encodes only the lines put in, a line that is not ASCII too', () => {
    const after = `${line('a.test/')}${line('b.test/')}${line('d.test/', 'be_ü')}${line('h.test/')}`
    const changes = [
      { key: 'a.test/', after: line('a.test/') },
      { key: 'd.test/', before: line('d.test/'), after: line('d.test/', 'be_ü') },
      { key: 'f.test/', before: line('f.test/') },
    ]
    const parts = mapSplice(before, changes, root(before), root(after))!
    expect(splicedBytes(before, encode(before), parts)).toEqual(encode(after))
  })

  it('gives nothing, for the text to be encoded whole, when the text before is not one byte a character', () => {
    const wide = `${line('ä.test/')}${before}`
    const after = `${wide}${line('z.test/')}`
    const parts = mapSplice(wide, [{ key: 'z.test/', after: line('z.test/') }], root(wide), root(after))!
    expect(parts).toBeDefined()
    expect(splicedBytes(wide, encode(wide), parts)).toBeUndefined()
  })
})
