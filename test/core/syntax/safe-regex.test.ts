import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_REGEX_LIMITS, readSafeRegex, type SafeRegex } from '../../../core/syntax/safe-regex.ts'
import { emitRegex } from '../../../core/syntax/safe-regex-emit.ts'
import { arbitraryMatchedText, arbitrarySafeRegex } from '../../support/arbitrary-regex.ts'
import { runs } from '../../support/property-runs.ts'

function accepted(text: string): SafeRegex {
  const read = readSafeRegex(text)
  if ('refused' in read) throw new Error(`refused ${JSON.stringify(text)}: ${read.refused}`)
  return read
}

const emitted = (text: string) => emitRegex(accepted(text).tree)

describe('readSafeRegex', () => {
  it.each([
    ['/menu/([^/]+)/([^/]+)', '/menu/([^\\/]+)/([^\\/]+)', 2],
    ['/api/v[0-9]+', '/api/v[0-9]+', 0],
    ['CN=(name1|name2)', 'CN=(name1|name2)', 1],
    ['^/(?<version>v\\d)\\.json$', '^/(v[0-9])\\.json$', 1],
    ['(?:a|b)(c)?', '(?:a|b)(c)?', 1],
    ['x{2,5}?[\\w-]', 'x{2,5}?[0-9A-Z_a-z\\-]', 0],
    ['/a b#c', '/a\\x20b\\#c', 0],
    ['[^\\s]\\t', '[^\\x09-\\x0d\\x20]\\x09', 0],
  ])('reads %j as %j with %i capture groups', (text, normalised, captures) => {
    expect(emitted(text)).toBe(normalised)
    expect(accepted(text).captures).toBe(captures)
  })

  it.each([
    ['a backreference', '(a)\\1', /backreference "\\1" at position 4/],
    ['a lookahead', '/a(?=b)', /lookahead at position 3/],
    ['a lookbehind', '(?<!x)y', /lookbehind at position 1/],
    ['inline flags', '(?i)/api', /inline flags at position 1/],
    ['an atomic group', '(?>ab)', /atomic group at position 1/],
    ['a possessive quantifier', 'a*+', /possessive quantifier at position 3/],
    ['a Unicode property', '\\p{L}', /Unicode property "\\p" at position 1/],
    ['a word boundary', 'a\\b', /word boundary "\\b" at position 2/],
    ['nested unbounded quantifiers', '(a+)+', /nested with an unbounded one .* at position 5, which risks catastrophic backtracking/],
    ['a repeated group around an unbounded quantifier', '(?:x.*){3}', /nested with an unbounded one .* at position 8/],
    ['overlapping branches under a star', '(a|ab)*', /branches that can begin with the same character .* at position 7/],
    ['too many unbounded quantifiers', 'a*b*c*d*e*f*g*', /more than 6 unbounded quantifiers/],
    ['a POSIX class', '[[:alpha:]]', /POSIX class at position 2/],
    ['a non-ASCII character', '/caf\u00e9', /only printable ASCII .* at position 5/],
    ['a control character', '/a\u0001', /at position 3/],
    ['an unclosed group', '/a(b', /unclosed "\(" at position 3/],
    ['an unmatched parenthesis', '/a)b', /unmatched "\)" at position 3/],
    ['a bare brace', 'a{,3}', /bare "\{" .* at position 2/],
    ['a quantifier with nothing to repeat', '*a', /nothing to repeat at position 1/],
    ['a quantifier on an anchor', '^*', /quantifier on an anchor at position 1/],
    ['a count above the limit', 'a{1000}', /count above 255/],
    ['a reversed range', '[z-a]', /range out of order at position 3/],
    ['an empty class', '[]', /empty class/],
    ['a trailing backslash', 'a\\', /"\\" at the end at position 2/],
    ['an expression over the length limit', 'a'.repeat(257), /longer than 256 characters/],
  ])('refuses %s, naming it and where', (_, text, reason) => {
    const read = readSafeRegex(text)
    expect('refused' in read && read.refused).toMatch(reason)
  })

  it('limits the length of what is written, not of its emitted form, which spells classes out and may be longer', () => {
    // Found by the property below (seed -370798683), which therefore reads an emitted form back under a limit of its own length.
    const written = String.raw`(\s|[a-c]{0,}\s+?\W|\s)(?:[a-c]?[A-Za-z]|\W\S)+|[\d.]*?\d\W{1,3}((\t??\s?)??\s??()?|[ab/]{1,3}[#\s]{1,2}?)|[\d.]\w+$`
    const read = readSafeRegex(written)
    if ('refused' in read) throw new Error(read.refused)
    expect(emitRegex(read.tree).length).toBeGreaterThan(DEFAULT_REGEX_LIMITS.length)
    expect(readSafeRegex(emitRegex(read.tree))).toEqual({ refused: 'the regular expression is longer than 256 characters' })
  })

  it('never throws, and what it accepts is re-emitted as one map-file word that reads back to itself', () => {
    fc.assert(
      fc.property(fc.oneof(arbitrarySafeRegex, fc.string({ maxLength: 40 })), (text) => {
        const read = readSafeRegex(text)
        if ('refused' in read) return
        const normalised = emitRegex(read.tree)
        expect(normalised).toMatch(/^[\x21-\x7e]*$/)
        expect(normalised.startsWith('#')).toBe(false)
        // The length limit bounds what a user writes; the emitted form spells classes out (`\s` is `[\x09-\x0d\x20]`) and may be longer.
        const again = readSafeRegex(normalised, { ...DEFAULT_REGEX_LIMITS, length: Math.max(DEFAULT_REGEX_LIMITS.length, normalised.length) })
        expect('refused' in again ? again.refused : emitRegex(again.tree)).toBe(normalised)
        expect('captures' in again && again.captures).toBe(read.captures)
      }),
      { numRuns: runs(2000) },
    )
  })

  it('re-emits an expression that matches, and captures, exactly what the written one does', () => {
    let compared = 0
    fc.assert(
      fc.property(arbitrarySafeRegex, fc.array(arbitraryMatchedText, { minLength: 1, maxLength: 8 }), (text, inputs) => {
        const read = readSafeRegex(text)
        if ('refused' in read) return
        compared++
        // Group names do not change what matches; JavaScript knows neither `(?P<` nor a name used twice.
        const written = new RegExp(text.replace(/\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/g, '('))
        const normalised = new RegExp(emitRegex(read.tree))
        expect(normalised.source.length).toBeGreaterThanOrEqual(0)
        for (const input of inputs) expect(normalised.exec(input)?.slice() ?? null).toEqual(written.exec(input)?.slice() ?? null)
        expect(written.exec('')?.length ?? read.captures + 1).toBe(read.captures + 1)
      }),
      { numRuns: runs(1000) },
    )
    expect(compared).toBeGreaterThan(0)
  })
})
