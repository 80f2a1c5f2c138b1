import { expected, SnippetRefusal } from './refusal.ts'

const HEX = /^[0-9a-fA-F]{2}$/

/** What a backslash followed by this character stands for, wherever HAProxy unescapes it (outside single quotes). */
const ESCAPED: ReadonlyMap<string, string> = new Map([
  [' ', ' '],
  ['\\', '\\'],
  ['t', '\t'],
  ['n', '\n'],
  ['r', '\r'],
  ['#', '#'],
  ["'", "'"],
  ['"', '"'],
])

/**
 * The words of a configuration line exactly as HAProxy's `parse_line` cuts them (2.6 to 3.x),
 * so the allow-list judges what HAProxy will read and nothing can hide behind quoting:
 * spaces separate words outside quotes, `#` outside quotes ends the line, quotes are removed,
 * and outside single quotes a backslash escapes a space, `\`, `#`, a quote, `r`, `n`, `t` or
 * `\xHH` (any other backslash stays). Inside double quotes `$` expands an environment
 * variable (or is a syntax error), so it is refused; an unterminated quote is refused too.
 */
export function splitWords(line: string): string[] {
  const words: string[] = []
  let word = ''
  let single = false
  let double = false
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!
    if (char === '#' && !single && !double) break
    if (char === '"' && !single) double = !double
    else if (char === "'" && !double) single = !single
    else if (char === ' ' && !single && !double) {
      while (line[at + 1] === ' ') at++
      words.push(word)
      word = ''
    } else if (char === '$' && double) {
      throw new SnippetRefusal('"$" inside double quotes expands an environment variable')
    } else if (char === '\\' && !single) {
      const next = line[at + 1] ?? ''
      if (next === '$' && double) {
        word += '$'
        at++
      } else if (next === 'x') {
        const hex = line.slice(at + 2, at + 4)
        if (!HEX.test(hex)) throw expected(`two hexadecimal digits after "\\x"`)
        word += String.fromCharCode(Number.parseInt(hex, 16))
        at += 3
      } else if (ESCAPED.has(next)) {
        word += ESCAPED.get(next)
        at++
      } else word += char
    } else word += char
  }
  if (single || double) throw new SnippetRefusal(`a ${single ? 'single' : 'double'} quote is not closed`)
  // As HAProxy does, a last empty word (trailing spaces, a trailing "") is not a word.
  if (word !== '') words.push(word)
  return words
}

/** The words of one line, read left to right by the directive grammar. */
export class WordReader {
  private at = 0

  constructor(private readonly words: readonly string[]) {}

  get done(): boolean {
    return this.at >= this.words.length
  }

  /** The next word without taking it; undefined at the end of the line. */
  peek(): string | undefined {
    return this.words[this.at]
  }

  /** Takes the next word; `what` says what the grammar needed if the line has ended. */
  take(what: string): string {
    const word = this.words[this.at]
    if (word === undefined) throw expected(what)
    this.at++
    return word
  }

  /** Takes the next word if it is `word`. */
  accept(word: string): boolean {
    if (this.words[this.at] !== word) return false
    this.at++
    return true
  }
}
