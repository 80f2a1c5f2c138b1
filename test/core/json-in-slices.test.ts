import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parsingJson } from '../../core/json-in-slices.ts'
import { runToEnd } from '../../core/slices.ts'

const parse = (text: string) => runToEnd(parsingJson(text))

/** What JSON.parse answers for `text`: its value, or the message it throws. */
function reference(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

function sliced(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parse(text) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/** A List body as a resync sends it, spaced as JSON.stringify spaces it with `space`. */
const listText = fc
  .tuple(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }), fc.constantFrom(undefined, 1, '\t'))
  .map(([items, rest, space]) => JSON.stringify({ ...rest, apiVersion: 'v1', kind: 'List', items, more: [items, []] }, null, space))

describe('parsingJson', () => {
  it('answers what JSON.parse answers for any JSON text, objects with array members among them', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), listText), (text) => {
        expect(sliced(text)).toEqual(reference(text))
      }),
    )
  })

  it('answers or refuses as JSON.parse does when the text is cut, changed or malformed anywhere', () => {
    const damaged = fc
      .tuple(listText, fc.nat(), fc.constantFrom('', ',', ']', '[', '}', '{', '"', '\\', ' ', '\u00a0', 'x', ',,', '1'))
      .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice((at % (text.length + 1)) + (insert === '' ? 1 : 0)))
    fc.assert(
      fc.property(damaged, (text) => {
        expect(sliced(text)).toEqual(reference(text))
      }),
    )
  })

  it('reads a key twice, an escaped key and a __proto__ member as JSON.parse does', () => {
    for (const text of [
      '{"items":[1,2],"items":[3]}',
      '{"items":[1],"items":2}',
      '{"items":2,"items":[1]}',
      '{"it\\"ems":[{"a":"]"},"[,"]}',
      // Runs of backslashes before a quote: an even run leaves it closing the string, an odd one escapes it.
      '{"items":["\\\\",{"a\\\\\\"":"],"},"\\\\\\\\"],"b":"\\\\"}',
      '{"items":["\\\\"]}',
      '{"__proto__":[1,{"b":[2,3]}]}',
      '{"items":[1,]}',
      '{"items":[,1]}',
      '{"items":[ ]}',
      '{"items":[\u00a0]}',
      '[1,2]',
      ' {"items":[1] } x',
    ])
      expect(sliced(text)).toEqual(reference(text))
    expect(Object.getPrototypeOf(parse('{"__proto__":[1]}'))).toBe(Object.prototype)
  })

  it("passes each element of the top-level object's arrays through `each` with its text, and holds what it answers", () => {
    const marked = (text: string) => runToEnd(parsingJson(text, (value, element, member) => ({ member, value, again: JSON.parse(element) as unknown })))
    fc.assert(
      fc.property(listText, (text) => {
        const expected = JSON.parse(text) as Record<string, unknown>
        for (const [member, value] of Object.entries(expected))
          if (Array.isArray(value)) expected[member] = value.map((element) => ({ member, value: element, again: element }))
        expect(marked(text)).toEqual(expected)
      }),
    )
    // A key twice: JSON.parse reads the text whole, and the elements' texts are written again.
    expect(marked('{"items":[1],"items":[{"a":2}]}')).toEqual({ items: [{ member: 'items', value: { a: 2 }, again: { a: 2 } }] })
  })

  it('yields between its steps on a large list, each element of it parsed alone', () => {
    const text = JSON.stringify({ kind: 'List', items: Array.from({ length: 3000 }, (_, i) => ({ name: `app-${i}`, paths: ['/', `/x${i}`] })) })
    const steps = parsingJson(text)
    let yielded = 0
    let step = steps.next()
    for (; !step.done; step = steps.next()) yielded++
    expect(yielded).toBeGreaterThanOrEqual(3000)
    expect(step.value).toEqual(JSON.parse(text))
  })
})
