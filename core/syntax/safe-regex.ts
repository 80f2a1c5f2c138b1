/**
 * A regular expression a cluster wrote (a use-regex path, auth-tls-match-cn, a canary header
 * pattern), read into the syntax tree of a subset known to be safe and to mean the same in PCRE2
 * (HAProxy) and in JavaScript: literals and escapes, `.`, classes (negated, ranges, `\d \w \s`
 * and their negations), groups (capturing, named, non-capturing), alternation, quantifiers
 * `* + ? {m} {m,} {m,n}` and their lazy forms, anchors `^ $`. Everything else is refused with the
 * construct and its position: hapedge re-emits the expression from the tree (safe-regex-emit.ts),
 * so no text a user wrote reaches HAProxy as it was written, and nothing it cannot bound runs.
 */

/** One character, or a range of them, of a class; shorthand classes are expanded to ranges as they are read. */
export interface CharRange {
  from: number
  to: number
}

export type RegexNode =
  | { kind: 'char'; code: number }
  | { kind: 'any' }
  | { kind: 'class'; negated: boolean; ranges: readonly CharRange[] }
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'group'; capture: boolean; body: RegexNode }
  | { kind: 'sequence'; items: readonly RegexNode[] }
  | { kind: 'alternation'; alternatives: readonly RegexNode[] }
  /** `at`: where the quantifier is written (from 0), for a reason that points at it. */
  | { kind: 'repeat'; min: number; max: number; lazy: boolean; body: RegexNode; at: number }

export interface SafeRegex {
  tree: RegexNode
  /** How many capture groups, `$1` (or `\1`) first. */
  captures: number
}

export type SafeRegexReading = SafeRegex | { refused: string }

export interface SafeRegexLimits {
  /** The longest expression read. */
  length: number
  /** The most unbounded quantifiers (`*`, `+`, `{m,}`): each can multiply the work of a failed match by the length of the input. */
  unbounded: number
  /** The largest count a quantifier may name. */
  count: number
}

export const DEFAULT_REGEX_LIMITS: SafeRegexLimits = { length: 256, unbounded: 6, count: 255 }

const SHORTHANDS: Record<string, readonly CharRange[]> = {
  d: [{ from: 0x30, to: 0x39 }],
  w: [
    { from: 0x30, to: 0x39 },
    { from: 0x41, to: 0x5a },
    { from: 0x5f, to: 0x5f },
    { from: 0x61, to: 0x7a },
  ],
  // PCRE2's and JavaScript's \s agree on ASCII: tab, newline, vertical tab, form feed, carriage return, space.
  s: [
    { from: 0x09, to: 0x0d },
    { from: 0x20, to: 0x20 },
  ],
}

const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d }

/** Escapes that name something outside the subset, and what they are, for the reason. */
const REFUSED_ESCAPES: Record<string, string> = {
  b: 'a word boundary',
  B: 'a word boundary',
  A: 'an anchor',
  Z: 'an anchor',
  z: 'an anchor',
  G: 'an anchor',
  p: 'a Unicode property',
  P: 'a Unicode property',
  X: 'a Unicode cluster',
  R: 'a line break class',
  k: 'a named backreference',
  g: 'a backreference',
  K: 'a match reset',
  Q: 'a quoted sequence',
  E: 'a quoted sequence',
  c: 'a control character escape',
  u: 'a Unicode escape',
  N: 'a not-newline escape',
  h: 'a horizontal space class',
  H: 'a horizontal space class',
  C: 'a single code unit',
  o: 'an octal escape',
  e: 'an escape character escape',
  a: 'an alarm escape',
}

/** Inline flags, lookaround and the other `(?` forms, for the reason. */
function groupForm(after: string): string {
  if (after.startsWith('=') || after.startsWith('!')) return 'a lookahead'
  if (after.startsWith('<=') || after.startsWith('<!')) return 'a lookbehind'
  if (after.startsWith('>')) return 'an atomic group'
  if (after.startsWith('#')) return 'a comment'
  if (after.startsWith('|')) return 'a branch reset group'
  if (after.startsWith('(')) return 'a conditional group'
  if (/^[R0-9&+-]/.test(after)) return 'a recursion or subroutine call'
  if (/^[a-zA-Z^]/.test(after)) return 'inline flags'
  return 'a group form'
}

class Refusal extends Error {}

/** Reads `text` into the safe subset's tree, or says what it holds outside it and where (positions count from 1). */
export function readSafeRegex(text: string, limits: SafeRegexLimits = DEFAULT_REGEX_LIMITS): SafeRegexReading {
  if (text.length > limits.length) return { refused: `the regular expression is longer than ${limits.length} characters` }
  const reader = new Reader(text, limits)
  try {
    const tree = reader.alternation()
    if (reader.at < text.length) reader.refuse(`an unmatched ")"`)
    checkBacktracking(tree, limits)
    return { tree, captures: reader.captures }
  } catch (error) {
    if (error instanceof Refusal) return { refused: error.message }
    throw error
  }
}

class Reader {
  at = 0
  captures = 0

  constructor(
    readonly text: string,
    readonly limits: SafeRegexLimits,
  ) {}

  refuse(what: string, at = this.at): never {
    throw new Refusal(`the regular expression has ${what} at position ${at + 1}, which hapedge does not read`)
  }

  alternation(): RegexNode {
    const alternatives = [this.sequence()]
    while (this.text[this.at] === '|') {
      this.at++
      alternatives.push(this.sequence())
    }
    return alternatives.length === 1 ? alternatives[0]! : { kind: 'alternation', alternatives }
  }

  sequence(): RegexNode {
    const items: RegexNode[] = []
    while (this.at < this.text.length && this.text[this.at] !== '|' && this.text[this.at] !== ')') {
      const start = this.at
      const atom = this.atom()
      items.push(this.quantified(atom, start))
    }
    return items.length === 1 ? items[0]! : { kind: 'sequence', items }
  }

  atom(): RegexNode {
    const char = this.text[this.at]!
    const code = char.charCodeAt(0)
    if (code < 0x20 || code > 0x7e) this.refuse(`the character ${JSON.stringify(char)} (only printable ASCII is read; write \\xHH)`)
    if ('*+?'.includes(char)) this.refuse(`a quantifier "${char}" with nothing to repeat`)
    if (char === '{' && this.count() !== undefined) this.refuse('a quantifier "{" with nothing to repeat')
    this.at++
    switch (char) {
      case '^':
        return { kind: 'start' }
      case '$':
        return { kind: 'end' }
      case '.':
        return { kind: 'any' }
      case '[':
        return this.charClass()
      case '(':
        return this.group()
      case '\\':
        return this.escape()
      case '{':
      case '}':
      case ']':
        // PCRE2 and JavaScript read a stray brace or bracket differently in corner cases: asked escaped.
        return this.refuse(`a bare "${char}" (write \\${char} for the character)`, this.at - 1)
      default:
        return { kind: 'char', code }
    }
  }

  group(): RegexNode {
    const open = this.at - 1
    let capture = true
    if (this.text[this.at] === '?') {
      const after = this.text.slice(this.at + 1)
      const named = /^(?:P?<)([A-Za-z_][A-Za-z0-9_]{0,31})>/.exec(after)
      if (after.startsWith(':')) {
        capture = false
        this.at += 2
      } else if (named) this.at += 1 + named[0].length
      else this.refuse(groupForm(after), open)
    }
    if (capture) this.captures++
    const body = this.alternation()
    if (this.text[this.at] !== ')') this.refuse('an unclosed "("', open)
    this.at++
    return { kind: 'group', capture, body }
  }

  escape(): RegexNode {
    const at = this.at - 1
    const char = this.text[this.at]
    if (char === undefined) this.refuse('a "\\" at the end', at)
    this.at++
    const shorthand = this.shorthand(char)
    if (shorthand) return shorthand
    return { kind: 'char', code: this.escapedCode(char, at) }
  }

  shorthand(char: string): RegexNode | undefined {
    const ranges = SHORTHANDS[char.toLowerCase()]
    return ranges && { kind: 'class', negated: char !== char.toLowerCase(), ranges }
  }

  /** The character an escape outside a shorthand stands for: `\xHH`, `\t`…, or a punctuation character itself. */
  escapedCode(char: string, at: number): number {
    if (char === 'x') {
      const hex = /^[0-9A-Fa-f]{2}/.exec(this.text.slice(this.at))
      if (!hex) this.refuse('a "\\x" escape without two hexadecimal digits', at)
      this.at += 2
      return Number.parseInt(hex[0], 16)
    }
    if (char in CONTROL_ESCAPES) return CONTROL_ESCAPES[char]!
    if (/[0-9]/.test(char)) this.refuse(char === '0' ? 'an octal escape' : `a backreference "\\${char}"`, at)
    if (/[A-Za-z]/.test(char)) this.refuse(`${REFUSED_ESCAPES[char] ?? 'an escape'} "\\${char}"`, at)
    const code = char.charCodeAt(0)
    if (code < 0x20 || code > 0x7e) this.refuse(`an escaped ${JSON.stringify(char)} (only printable ASCII is read)`, at)
    return code
  }

  charClass(): RegexNode {
    const open = this.at - 1
    const negated = this.text[this.at] === '^'
    if (negated) this.at++
    if (this.text[this.at] === ']') this.refuse('an empty class or a "]" first in a class (write \\])', open)
    const ranges: CharRange[] = []
    while (this.text[this.at] !== ']') {
      if (this.at >= this.text.length) this.refuse('an unclosed "["', open)
      const from = this.classMember()
      if (typeof from !== 'number') {
        ranges.push(...from)
        continue
      }
      if (this.text[this.at] === '-' && this.text[this.at + 1] !== ']' && this.at + 1 < this.text.length) {
        const dash = this.at
        this.at++
        const to = this.classMember()
        if (typeof to !== 'number') this.refuse('a range that ends with a class', dash)
        if (to < from) this.refuse('a range out of order', dash)
        ranges.push({ from, to })
      } else ranges.push({ from, to: from })
    }
    this.at++
    return { kind: 'class', negated, ranges }
  }

  /** One character of a class, or the ranges of a shorthand in it. */
  classMember(): number | readonly CharRange[] {
    const at = this.at
    const char = this.text[this.at++]!
    const code = char.charCodeAt(0)
    if (code < 0x20 || code > 0x7e) this.refuse(`the character ${JSON.stringify(char)} (only printable ASCII is read; write \\xHH)`, at)
    if (char === '[' && /^[:.=]/.test(this.text.slice(this.at))) this.refuse('a POSIX class', at)
    if (char === '[') this.refuse('a bare "[" in a class (write \\[)', at)
    if (char !== '\\') return code
    const escaped = this.text[this.at]
    if (escaped === undefined) this.refuse('a "\\" at the end', at)
    this.at++
    const shorthand = this.shorthand(escaped)
    if (shorthand?.kind === 'class') {
      if (shorthand.negated) this.refuse(`a negated shorthand "\\${escaped}" in a class`, at)
      return shorthand.ranges
    }
    if (escaped === 'b') this.refuse('a backspace escape "\\b" in a class', at)
    return this.escapedCode(escaped, at)
  }

  /** A `{m}`, `{m,}` or `{m,n}` quantifier at the current position, read without moving. */
  count(): { min: number; max: number; length: number } | undefined {
    const read = /^\{([0-9]{1,5})(,([0-9]{0,5}))?\}/.exec(this.text.slice(this.at))
    if (!read) return undefined
    const min = Number(read[1])
    const max = read[2] === undefined ? min : read[3] === '' ? Number.POSITIVE_INFINITY : Number(read[3])
    return { min, max, length: read[0].length }
  }

  quantified(atom: RegexNode, start: number): RegexNode {
    const char = this.text[this.at]
    const at = this.at
    let min: number
    let max: number
    if (char === '*' || char === '+' || char === '?') {
      ;[min, max] = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1]
      this.at++
    } else if (char === '{' && this.count()) {
      const count = this.count()!
      if (count.min > this.limits.count || (count.max !== Infinity && count.max > this.limits.count)) this.refuse(`a count above ${this.limits.count}`)
      if (count.max < count.min) this.refuse('a quantifier whose maximum is below its minimum')
      ;({ min, max } = count)
      this.at += count.length
    } else return atom
    if (atom.kind === 'start' || atom.kind === 'end') this.refuse('a quantifier on an anchor', start)
    const lazy = this.text[this.at] === '?'
    if (lazy) this.at++
    if (this.text[this.at] === '+') this.refuse('a possessive quantifier')
    if (this.text[this.at] !== undefined && '*+?'.includes(this.text[this.at]!)) this.refuse('a quantifier after a quantifier')
    if (this.text[this.at] === '{' && this.count()) this.refuse('a quantifier after a quantifier')
    return { kind: 'repeat', min, max, lazy, body: atom, at }
  }
}

/**
 * Refuses what can backtrack catastrophically on a failed match: a quantifier that repeats more
 * than once around an unbounded one (`(a+)+`, `(a*){2,}`, `(?:x.*){3}`), an unbounded quantifier
 * around an alternation whose branches can begin with the same character (`(a|ab)*`), and more
 * unbounded quantifiers than the limit. What remains is linear or of a small polynomial degree in
 * the length of the input, which HAProxy bounds.
 */
function checkBacktracking(tree: RegexNode, limits: SafeRegexLimits): void {
  let unbounded = 0
  const refuseAt = (at: number, what: string): never => {
    throw new Refusal(`the regular expression has ${what} at position ${at + 1}, which risks catastrophic backtracking`)
  }
  const visit = (node: RegexNode, insideRepeat: boolean, unboundedAt: number | undefined): void => {
    const insideUnbounded = unboundedAt !== undefined
    switch (node.kind) {
      case 'group':
        return visit(node.body, insideRepeat, unboundedAt)
      case 'sequence':
        return node.items.forEach((item) => visit(item, insideRepeat, unboundedAt))
      case 'alternation':
        if (insideUnbounded && overlappingBranches(node.alternatives))
          refuseAt(unboundedAt, 'an unbounded quantifier around branches that can begin with the same character (as in (a|ab)*)')
        return node.alternatives.forEach((alternative) => visit(alternative, insideRepeat, unboundedAt))
      case 'repeat': {
        const repeats = node.max > 1
        const endless = node.max === Infinity
        if (endless) unbounded++
        if ((endless && insideRepeat) || (repeats && containsUnbounded(node.body)))
          refuseAt(node.at, 'a quantifier nested with an unbounded one in a repeated group (as in (a+)+)')
        return visit(node.body, insideRepeat || repeats, endless ? (unboundedAt ?? node.at) : unboundedAt)
      }
      default:
        return
    }
  }
  visit(tree, false, undefined)
  if (unbounded > limits.unbounded)
    throw new Refusal(`the regular expression has more than ${limits.unbounded} unbounded quantifiers ("*", "+", "{m,}"), which risk slow matching`)
}

/** Whether the node, or a node within it, passes `test`. */
export function someNode(node: RegexNode, test: (node: RegexNode) => boolean): boolean {
  if (test(node)) return true
  switch (node.kind) {
    case 'group':
    case 'repeat':
      return someNode(node.body, test)
    case 'sequence':
      return node.items.some((item) => someNode(item, test))
    case 'alternation':
      return node.alternatives.some((alternative) => someNode(alternative, test))
    default:
      return false
  }
}

/** Whether the expression holds a start anchor `^` anywhere. */
export const holdsStart = (node: RegexNode) => someNode(node, (inner) => inner.kind === 'start')

const containsUnbounded = (node: RegexNode) => someNode(node, (inner) => inner.kind === 'repeat' && inner.max === Infinity)

/** Whether two branches can begin with the same character (or both match nothing). */
function overlappingBranches(alternatives: readonly RegexNode[]): boolean {
  const firsts = alternatives.map(firstCharacters)
  for (let i = 0; i < firsts.length; i++)
    for (let j = i + 1; j < firsts.length; j++) {
      const [a, b] = [firsts[i]!, firsts[j]!]
      if ((a.empty && b.empty) || a.codes.some((can, code) => can && b.codes[code])) return true
    }
  return false
}

interface Firsts {
  /** By character code (0 to 127, then 128 for any other character): whether a match can begin with it. */
  codes: boolean[]
  /** Whether the node can match the empty string. */
  empty: boolean
}

const ALPHABET = 129

function firstCharacters(node: RegexNode): Firsts {
  const none = (): Firsts => ({ codes: new Array<boolean>(ALPHABET).fill(false), empty: false })
  switch (node.kind) {
    case 'char': {
      const firsts = none()
      firsts.codes[Math.min(node.code, 128)] = true
      return firsts
    }
    case 'any':
      return { codes: new Array<boolean>(ALPHABET).fill(true), empty: false }
    case 'class': {
      const firsts = none()
      for (let code = 0; code < ALPHABET; code++) {
        const inRanges = node.ranges.some((range) => range.from <= code && code <= range.to)
        firsts.codes[code] = code === 128 ? node.negated : inRanges !== node.negated
      }
      return firsts
    }
    case 'start':
    case 'end':
      return { ...none(), empty: true }
    case 'group':
      return firstCharacters(node.body)
    case 'repeat': {
      const body = firstCharacters(node.body)
      return { codes: body.codes, empty: body.empty || node.min === 0 }
    }
    case 'alternation':
      return node.alternatives.map(firstCharacters).reduce(union)
    case 'sequence': {
      let firsts: Firsts = { ...none(), empty: true }
      for (const item of node.items) {
        const next = firstCharacters(item)
        firsts = { codes: union(firsts, next).codes, empty: next.empty }
        if (!next.empty) break
      }
      return firsts
    }
  }
}

const union = (a: Firsts, b: Firsts): Firsts => ({ codes: a.codes.map((can, code) => can || b.codes[code]!), empty: a.empty || b.empty })
