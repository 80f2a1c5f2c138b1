import { holdsStart, readSafeRegex } from './safe-regex.ts'
import { emitRegex } from './safe-regex-emit.ts'

/**
 * A regular expression NGINX searches a value for (`~`: anywhere, unless it begins with `^`), read
 * by the safe-regex reader and re-emitted as one hapedge places after a prefix of its own in a
 * map_reg key: `.*(?:…)`, or `(?:…)` when anchored at the value's start. A `^` elsewhere could
 * never match after that prefix, so it is refused.
 */
export function searchExpression(text: string): { expression: string } | { refused: string } {
  const read = readSafeRegex(text)
  if ('refused' in read) return read
  const { tree } = read
  const anchored = tree.kind === 'start' || (tree.kind === 'sequence' && tree.items[0]?.kind === 'start')
  const rest = anchored && tree.kind === 'sequence' ? { ...tree, items: tree.items.slice(1) } : anchored ? undefined : tree
  if (rest && holdsStart(rest)) return { refused: 'the regular expression has a "^" other than its first character, which hapedge does not read' }
  return { expression: `${anchored ? '' : '.*'}(?:${rest ? emitRegex(rest) : ''})` }
}
