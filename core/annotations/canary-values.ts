import type { z } from 'zod'
import { quote } from '../syntax/fields.ts'
import { searchExpression } from '../syntax/regex-search.ts'
import { invalid, type Invalid, parser as valueParser } from './values.ts'

/**
 * The canary annotations' values. A header or cookie name is written into the frontend's rules, a
 * header value into a map key: each is held to characters HAProxy's configuration, its map files and
 * its runtime API read as themselves, and anything else is refused, never escaped.
 */

/** What a canary header or cookie name may hold: it is written into `req.hdr(…)` and `req.cook(…)`. */
const NAME = /^[A-Za-z0-9_.-]{1,64}$/
/** What a canary header value may hold: it is written into a map key and sent in a `set map` command. */
const VALUE_CHARACTERS = 'A-Za-z0-9._~@:+=/-'
const VALUE = new RegExp(`^[${VALUE_CHARACTERS}]{1,128}$`)

/** values.ts's parser, on the value without surrounding whitespace. */
const parser = <T>(parse: (value: string) => T | Invalid): z.ZodType<T, string> => valueParser((value) => parse(value.trim()))

/** The most a weight or total may be: far above any percentage, far below what HAProxy's `rand` draws from. */
export const MAX_CANARY_TOTAL = 1_000_000

const count = (minimum: number) =>
  parser((value) => {
    if (!/^\d{1,7}$/.test(value)) return invalid(`${quote(value)} must be a whole number`)
    const n = Number(value)
    return n >= minimum && n <= MAX_CANARY_TOTAL ? n : invalid(`${quote(value)} must be from ${minimum} to ${MAX_CANARY_TOTAL}`)
  })

/** canary-weight: how many requests of canary-weight-total go to the canary. */
export const canaryWeight = count(0)

/** canary-weight-total, as hapedge reads it: any total from 1. */
export const canaryWeightTotal = count(1)

/** ingress-nginx's canary-weight-total: its balancer draws from at least 100, so a smaller total is read as 100. */
export const nginxCanaryWeightTotal = canaryWeightTotal.transform((total) => Math.max(total, 100))

/** canary-by-header: a header name, lowercased (header names are case-insensitive; the frontend compares it so). */
export const canaryHeader = parser((value) =>
  NAME.test(value) ? value.toLowerCase() : invalid(`${quote(value)} must be a header name of letters, digits, "-", "_" or "."`),
)

/** canary-by-cookie: a cookie name (case-sensitive). */
export const canaryCookie = parser((value) => (NAME.test(value) ? value : invalid(`${quote(value)} must be a cookie name of letters, digits, "-", "_" or "."`)))

/** canary-by-header-value: the one value that sends a request to the canary. */
export const canaryHeaderValue = parser((value) =>
  VALUE.test(value) ? [value] : invalid(`${quote(value)} must be 1 to 128 of the characters ${VALUE_CHARACTERS}`),
)

/**
 * canary-by-header-pattern's literal values, and where in the header's value the pattern anchors them: `^` at its start, `$` at its end, both for whole values;
 * or, for a pattern that is no literal alternatives, its `expression` as the safe-regex reader re-emits it to search a value (regex-search.ts).
 */
export interface HeaderPattern {
  values: string[]
  start: boolean
  end: boolean
  expression?: string
}

/**
 * canary-by-header-pattern: a regular expression written by a cluster never reaches HAProxy. Only
 * alternatives of literals are accepted (`^canary$`, `^(alpha|beta)$`, `^(?:v2\.1|v3)$`, `cd|sz`), each
 * of the characters canary-by-header-value allows (`.`, `+` and `-` written `\.`, `\+`, `\-` or, for
 * `-`, bare), with the anchors `^` and `$` each optional: NGINX searches the header's value for the
 * pattern, so `cd|sz` sends a value that contains `cd` or `sz`, `^v2` one that begins with `v2`.
 */
export const canaryHeaderPattern = parser<HeaderPattern>((pattern) => {
  const start = pattern.startsWith('^')
  const end = pattern.length > (start ? 1 : 0) && pattern.endsWith('$') && !pattern.endsWith('\\$')
  const inner = pattern.slice(start ? 1 : 0, end ? -1 : undefined)
  const body = /^\((?:\?:)?(.*)\)$/.exec(inner)?.[1] ?? inner
  const values: string[] = []
  const alternatives = body.split('|')
  for (const alternative of alternatives) {
    const literal = literalOf(alternative)
    const what = alternatives.length > 1 ? `${quote(alternative)} in ${quote(pattern)}` : quote(pattern)
    if (literal === undefined || !VALUE.test(literal)) return generalPattern(pattern, what)
    values.push(literal)
  }
  return { values: [...new Set(values)], start, end }
})

/** A pattern that is no literal alternatives: searched for as the safe-regex reader re-emits it, or refused with the construct it holds. */
function generalPattern(pattern: string, what: string): HeaderPattern | Invalid {
  const read = searchExpression(pattern)
  if ('expression' in read) return { values: [], start: false, end: false, expression: read.expression }
  return invalid(
    `${what} is not read: ${read.refused}; hapedge reads literal alternatives, and other expressions of its safe subset re-emitted, so no regular expression a cluster writes reaches HAProxy as written`,
  )
}

/** The literal a regular-expression alternative stands for, when it is one: plain characters, and `\` before a character that is not a letter or digit. */
function literalOf(alternative: string): string | undefined {
  let literal = ''
  for (let i = 0; i < alternative.length; i++) {
    const char = alternative[i]!
    if (char === '\\') {
      const escaped = alternative[++i]
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) return undefined
      literal += escaped
    } else if (/[A-Za-z0-9_~@:=/-]/.test(char)) literal += char
    else return undefined
  }
  return literal === '' ? undefined : literal
}
