import { expected, notAllowed } from './refusal.ts'
import { checkConverterCalls, checkSampleExpression } from './sample-expression.ts'
import { ACL_KEYWORDS, isConverterName } from './vocabulary.ts'
import type { WordReader } from './words.ts'

/** ACL names as HAProxy accepts them; predefined ones (`TRUE`, `METH_GET`, `HTTP_1.1`…) are names too. */
const ACL_NAME = /^[A-Za-z0-9_.:-]+$/

/** Matching methods for `-m`; files (`-f`, `-M`) and pattern-reference ids (`-u`) are not allowed. */
const MATCH_METHODS: ReadonlySet<string> = new Set(['found', 'bool', 'int', 'ip', 'bin', 'len', 'str', 'sub', 'reg', 'beg', 'end', 'dir', 'dom'])

/** A word HAProxy would read as one more converter: it starts with a converter's name, then `(`, `,` or nothing. */
function readsAsConverter(word: string): boolean {
  const name = /^[A-Za-z0-9._+-]+(?=[(,]|$)/.exec(word)?.[0]
  return name !== undefined && isConverterName(name)
}

export function checkAclName(name: string): void {
  if (!ACL_NAME.test(name)) throw notAllowed(name, 'ACL names are letters, digits and "-_.:"')
}

/**
 * `<criterion> [flags] [patterns…]`, up to `end` (the `}` of an anonymous ACL) or the end of
 * the line. The criterion is an allowed fetch or ACL keyword; patterns are literal, except
 * that words naming a converter right after the criterion are converters to HAProxy.
 */
export function readAclExpression(reader: WordReader, end?: string): void {
  checkSampleExpression(reader.take('a fetch to match'), ACL_KEYWORDS)
  const stops = (word: string | undefined) => word === undefined || word === end
  while (!stops(reader.peek()) && readsAsConverter(reader.peek()!)) checkConverterCalls(reader.take('a converter'))
  while (!stops(reader.peek()) && reader.peek()!.startsWith('-')) {
    const flag = reader.take('a flag')
    if (flag === '--') break
    if (flag === '-m') {
      const method = reader.take('a matching method after "-m"')
      if (!MATCH_METHODS.has(method)) throw notAllowed(method)
    } else if (flag !== '-i' && flag !== '-n') throw notAllowed(flag)
  }
  while (!stops(reader.peek())) reader.take('a pattern')
}

/**
 * The rest of the line after `if` or `unless`: ACL names, anonymous ACLs in `{ }`, `!`, `||`
 * and `or`. Named ACLs resolve within this backend only, so any name is fine.
 */
export function readCondition(reader: WordReader): void {
  let terms = 0
  while (!reader.done) {
    const word = reader.take('a condition')
    if (word === '||' || word.toLowerCase() === 'or') continue
    const term = word.replace(/^!+/, '')
    if (term === '') continue
    if (term === '{') {
      readAclExpression(reader, '}')
      if (!reader.accept('}')) throw expected('"}" closing the anonymous ACL')
    } else checkAclName(term)
    terms++
  }
  if (terms === 0) throw expected('a condition after "if" or "unless"')
}
