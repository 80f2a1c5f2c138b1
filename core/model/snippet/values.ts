import { quote } from '../../syntax/fields.ts'
import { checkLogFormat } from './log-format.ts'
import { expected, notAllowed } from './refusal.ts'
import type { WordReader } from './words.ts'

/** A value of a given shape, named in the refusal when a word does not have it. */
export interface Shaped {
  pattern: RegExp
  what: string
}

/** How HAProxy reads a value: as it is (`word`), as a log-format string (`format`), one of a few keywords, or of a shape. */
export type Value = 'word' | 'format' | ReadonlySet<string> | Shaped

/** Words after which a rule's condition starts. */
export const CONDITION_START: ReadonlySet<string> = new Set(['if', 'unless'])

export function readValue(reader: WordReader, value: Value, after: string): string {
  const word = reader.take(`a value after ${quote(after)}`)
  if (value === 'word') return word
  if (value === 'format') checkLogFormat(word)
  else if ('pattern' in value) {
    if (!value.pattern.test(word)) throw expected(`${value.what} after ${quote(after)}, not ${quote(word)}`)
  } else if (!value.has(word)) throw notAllowed(word)
  return word
}

/** Positional values, each read as its kind says. */
export function readValues(reader: WordReader, values: readonly Value[], after: string): void {
  for (const value of values) readValue(reader, value, after)
}

/**
 * Options in any order, each a keyword followed by its values, until one of `stops` or the end
 * of the line. Any other word is refused by name (`file`, `errorfile`, `lf-file`…).
 */
export function readOptions(reader: WordReader, options: ReadonlyMap<string, readonly Value[]>, stops: ReadonlySet<string> = CONDITION_START): void {
  while (!reader.done && !stops.has(reader.peek()!)) {
    const keyword = reader.take('an option')
    const values = options.get(keyword)
    if (!values) throw notAllowed(keyword)
    readValues(reader, values, keyword)
  }
}

/** A set of keywords, for `Value`. */
export function oneOf(...keywords: string[]): ReadonlySet<string> {
  return new Set(keywords)
}

export const TIME: Shaped = { pattern: /^\d+(us|ms|s|m|h|d)?$/, what: 'a time (such as 30s or 500ms)' }
export const INTEGER: Shaped = { pattern: /^\d+$/, what: 'a whole number' }
