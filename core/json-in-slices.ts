/** Characters of the text scanned per step: a few milliseconds' work. */
const SCAN_STEP = 64 * 1024

/** Where an array member of the top-level object lies in the text: its key and each element's text, as [start, end). */
interface ArrayMember {
  key: [number, number]
  /** The `[` and the index after the `]`. */
  start: number
  end: number
  elements: [number, number][]
}

/**
 * What an element of an array member of the top-level object becomes as it is parsed, given its
 * value, its text and the member's key: the array holds what it answers in its place.
 */
export type EachElement = (value: unknown, text: string, member: string) => unknown

/**
 * `JSON.parse(text)` as steps (see runInSlices): a resync's list of 40,000 objects is 18 MB of
 * text, which one JSON.parse holds the thread with for a quarter of a second. The text is scanned
 * in steps for the arrays that are members of the top-level object (a List's `items`); the rest
 * is parsed at once with each such array left empty, then each element is parsed on its own, a
 * step each, into its array, through `each` when given (a resync reads its items as they come,
 * and keeps none of them whole). The value is the one JSON.parse answers; any text it does not read
 * alike (not an object, a key twice, anything malformed) is parsed by JSON.parse itself, which
 * then answers or throws as it would have.
 */
export function* parsingJson(text: string, each?: EachElement): Generator<void, unknown> {
  const members = yield* arrayMembers(text)
  if (!members || members.length === 0) return JSON.parse(text)
  try {
    let envelope = ''
    let from = 0
    for (const member of members) {
      envelope += `${text.slice(from, member.start)}[]`
      from = member.end
    }
    const parsed = JSON.parse(envelope + text.slice(from)) as Record<string, unknown[]>
    const keys = members.map(({ key }) => JSON.parse(text.slice(...key)) as string)
    if (new Set(keys).size !== keys.length) return wholeJson(text, each)
    for (const [i, member] of members.entries()) {
      const array = parsed[keys[i]!]!
      for (const [start, end] of member.elements) {
        const element = text.slice(start, end)
        const value = JSON.parse(element) as unknown
        array.push(each ? each(value, element, keys[i]!) : value)
        yield
      }
    }
    return parsed
  } catch {
    return wholeJson(text, each)
  }
}

/** JSON.parse(text), with each element of the top-level object's array members passed through `each` (its text written again). */
function wholeJson(text: string, each: EachElement | undefined): unknown {
  const parsed = JSON.parse(text) as unknown
  if (!each || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed
  for (const [member, value] of Object.entries(parsed)) {
    if (Array.isArray(value)) value.forEach((element, i) => (value[i] = each(element, JSON.stringify(element), member)))
  }
  return parsed
}

/** JSON's own whitespace, and nothing else (String.prototype.trim takes more, which JSON.parse refuses). */
const JSON_SPACE = /^[ \t\n\r]*$/
const [SPACE, TAB, LINE_FEED, CARRIAGE_RETURN] = [0x20, 0x09, 0x0a, 0x0d]
const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a]
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [0x7b, 0x7d, 0x5b, 0x5d]

/**
 * The arrays that are members of the top-level object, with their elements' places, scanned a
 * step per SCAN_STEP characters; undefined when the text is not an object (JSON.parse reads it).
 * Only where each part lies is found here: JSON.parse then reads every part, and refuses what is
 * malformed (an empty element, a stray character) when it reads the part that holds it. A string
 * is passed over by indexOf to its closing quote: most of a list's characters are in strings, and
 * a look at each of them in JavaScript took longer than JSON.parse of the whole text.
 */
function* arrayMembers(text: string): Generator<void, ArrayMember[] | undefined> {
  let at = 0
  while (isSpace(text.charCodeAt(at))) at++
  if (text.charCodeAt(at) !== OPEN_OBJECT) return undefined
  const members: ArrayMember[] = []
  let depth = 0
  // At depth 1: the last key read, whether the next string is a key, and whether a value just began after a colon.
  let key: [number, number] = [0, 0]
  let keyNext = true
  let valueNext = false
  let member: ArrayMember | undefined
  let elementStart = 0
  for (let stepEnd = at + SCAN_STEP; at < text.length; at++) {
    if (at >= stepEnd) {
      yield
      stepEnd = at + SCAN_STEP
    }
    const code = text.charCodeAt(at)
    if (isSpace(code)) continue
    const startsValue = valueNext
    valueNext = false
    if (code === QUOTE) {
      const end = closingQuote(text, at)
      // Unterminated: JSON.parse refuses the part that holds it.
      if (end < 0) break
      if (depth === 1 && keyNext) {
        key = [at, end + 1]
        keyNext = false
      }
      at = end
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth++
      if (depth === 2 && startsValue && code === OPEN_ARRAY) {
        member = { key, start: at, end: at, elements: [] }
        elementStart = at + 1
      }
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      if (depth === 2 && member && code === CLOSE_ARRAY) {
        // An empty array has no element; anything else before the `]` is one (JSON.parse judges it).
        if (member.elements.length > 0 || !JSON_SPACE.test(text.slice(elementStart, at))) member.elements.push([elementStart, at])
        member.end = at + 1
        members.push(member)
        member = undefined
      }
      depth--
      if (depth === 0) break
    } else if (code === COMMA) {
      if (depth === 1) keyNext = true
      else if (depth === 2 && member) {
        member.elements.push([elementStart, at])
        elementStart = at + 1
      }
    } else if (code === COLON && depth === 1) valueNext = true
  }
  return members
}

const isSpace = (code: number) => code === SPACE || code === LINE_FEED || code === TAB || code === CARRIAGE_RETURN

/** The index of the quote that closes the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return at
  }
  return -1
}
