import type { CharRange, RegexNode } from './safe-regex.ts'

/**
 * A safe-regex tree written back as a PCRE2 expression, normalised: every character that is not a
 * letter, a digit or one of a few path characters is escaped (`\.`, `\#`, `\x20`), shorthand
 * classes are spelled as ranges, names of groups are dropped. The text holds no whitespace, no
 * control character and no `#` unescaped, so it is one word of a HAProxy map file or a runtime
 * command, and means the same to JavaScript's RegExp (the property tests compile it there).
 */
export function emitRegex(node: RegexNode): string {
  switch (node.kind) {
    case 'char':
      return literal(node.code)
    case 'any':
      return '.'
    case 'start':
      return '^'
    case 'end':
      return '$'
    case 'class':
      return `[${node.negated ? '^' : ''}${node.ranges.map(range).join('')}]`
    case 'group':
      return `(${node.capture ? '' : '?:'}${emitRegex(node.body)})`
    case 'sequence':
      return node.items.map(emitRegex).join('')
    case 'alternation':
      return node.alternatives.map(emitRegex).join('|')
    case 'repeat':
      return `${atom(node.body)}${quantifier(node)}${node.lazy ? '?' : ''}`
  }
}

/** Characters written as themselves outside a class: none of them means anything to PCRE2 or JavaScript there. */
const PLAIN = /^[A-Za-z0-9/_~%,=&@:-]$/

/** A text matched as itself (a host in a key hapedge builds), escaped as the emitter escapes literals. */
export const regexLiteral = (text: string) => [...text].map((char) => literal(char.charCodeAt(0))).join('')

function literal(code: number): string {
  const char = String.fromCharCode(code)
  if (PLAIN.test(char)) return char
  return code > 0x20 && code < 0x7f ? `\\${char}` : hex(code)
}

/** Inside a class, only letters, digits and `_` are written as themselves. */
function classCharacter(code: number): string {
  const char = String.fromCharCode(code)
  if (/^[A-Za-z0-9_]$/.test(char)) return char
  return code > 0x20 && code < 0x7f ? `\\${char}` : hex(code)
}

const hex = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`

const range = ({ from, to }: CharRange) => (from === to ? classCharacter(from) : `${classCharacter(from)}-${classCharacter(to)}`)

/** A quantifier's operand: one character, class or group as it is; anything longer wrapped in a non-capturing group. */
function atom(node: RegexNode): string {
  const text = emitRegex(node)
  return node.kind === 'char' || node.kind === 'any' || node.kind === 'class' || node.kind === 'group' ? text : `(?:${text})`
}

function quantifier({ min, max }: { min: number; max: number }): string {
  if (min === 0 && max === Infinity) return '*'
  if (min === 1 && max === Infinity) return '+'
  if (min === 0 && max === 1) return '?'
  if (max === Infinity) return `{${min},}`
  return min === max ? `{${min}}` : `{${min},${max}}`
}
