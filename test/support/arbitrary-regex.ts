import fc from 'fast-check'

/**
 * Regular expressions of the safe subset (core/syntax/safe-regex.ts) as users spell them: escapes,
 * shorthand classes, named groups, lazy quantifiers. Some come out refused (nested unbounded
 * quantifiers, overlapping branches under `*`), which the tests also see.
 */
const LITERALS = ['a', 'b', 'x', '/', '-', '_', '=', '\\.', '\\/', '\\-', '\\$', '\\(', '\\|', '\\x41', '\\t', '\\ ', ' ', '#', '%2F', ',']
const CLASSES = ['[a-c]', '[^/]', '[^a]', '[ab/]', '[0-9]', '[\\d.]', '[\\w-]', '[\\]x]', '[#\\s]', '[A-Za-z]']
const SHORTHANDS = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '.']
const QUANTIFIERS = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??', '{1,2}?']

export const arbitrarySafeRegex: fc.Arbitrary<string> = fc
  .letrec<{ alternation: string; sequence: string; piece: string; atom: string }>((tie) => ({
    alternation: fc.array(tie('sequence'), { minLength: 1, maxLength: 3 }).map((sequences) => sequences.join('|')),
    sequence: fc.array(tie('piece'), { minLength: 0, maxLength: 4 }).map((pieces) => pieces.join('')),
    piece: fc.tuple(tie('atom'), fc.constantFrom(...QUANTIFIERS)).map(([atom, quantifier]) => atom + quantifier),
    atom: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...LITERALS),
      fc.constantFrom(...CLASSES),
      fc.constantFrom(...SHORTHANDS),
      fc.tuple(fc.constantFrom('(', '(?:', '(?<name>', '(?P<n>'), tie('alternation')).map(([open, body]) => `${open}${body})`),
    ),
  }))
  .alternation.chain((body) => fc.tuple(fc.boolean(), fc.boolean()).map(([start, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`))

/** Strings over the characters the patterns above name, and a few they do not. */
export const arbitraryMatchedText = fc.string({
  unit: fc.constantFrom('a', 'b', 'x', 'A', '/', '-', '.', '_', '=', '$', '(', '|', ' ', '\t', '#', '%', '2', 'F', '9', ']', ','),
  maxLength: 12,
})
