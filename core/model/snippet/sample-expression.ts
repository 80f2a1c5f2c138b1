import { quote } from '../../syntax/fields.ts'
import { expected, notAllowed } from './refusal.ts'
import { CONVERTERS, OWN_VARIABLE, SHARED_VARIABLE } from './vocabulary.ts'

/** A fetch or converter keyword and its arguments, unquoted and unescaped as HAProxy's `make_arg_list` does. */
export interface Call {
  name: string
  args: string[]
}

/** Characters of a fetch or converter name (HAProxy's `is_idchar`, without `:` which no keyword uses). */
const NAME = /^[A-Za-z0-9._+-]+/

const ARGUMENT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\\', '\\'],
  [' ', ' '],
  ['"', '"'],
  ["'", "'"],
  ['r', '\r'],
  ['n', '\n'],
  ['t', '\t'],
])

/**
 * `fetch(args),conv(args),…` cut into calls. Quotes and backslashes inside the parentheses
 * are read as HAProxy 2.6 reads them; anything the grammar cannot read whole is refused
 * rather than guessed, so HAProxy can never see a keyword this reading missed.
 */
export function parseCalls(text: string): Call[] {
  const calls: Call[] = []
  let at = 0
  for (;;) {
    const name = NAME.exec(text.slice(at))?.[0]
    if (!name) throw expected(`a sample fetch or converter name in ${quote(text)}`)
    at += name.length
    const args: string[] = []
    if (text[at] === '(') at = readArguments(text, at + 1, args)
    calls.push({ name, args })
    if (at === text.length) return calls
    if (text[at] !== ',') throw expected(`"," or the end of ${quote(text)} after ${quote(name)}`)
    at++
  }
}

/** Reads the arguments after an opening parenthesis into `args`; returns the position after the closing one. */
function readArguments(text: string, from: number, args: string[]): number {
  let arg = ''
  let single = false
  let double = false
  for (let at = from; at < text.length; at++) {
    const char = text[at]!
    if (char === '"' && !single) double = !double
    else if (char === "'" && !double) single = !single
    else if (char === '\\' && !single && ARGUMENT_ESCAPES.has(text[at + 1] ?? '')) arg += ARGUMENT_ESCAPES.get(text[++at]!)
    else if (!single && !double && (char === ',' || char === ')')) {
      args.push(arg)
      arg = ''
      if (char === ')') return at + 1
    } else arg += char
  }
  throw expected(`")" closing the arguments in ${quote(text)}`)
}

/**
 * Refuses a sample expression unless its fetch is in `fetches` and each converter in
 * CONVERTERS, `var()` names a variable of this transaction, and no argument names a variable
 * other backends share (converters such as `add` and `concat` read variables by name).
 */
export function checkSampleExpression(text: string, fetches: ReadonlySet<string>): void {
  const [fetch, ...converters] = parseCalls(text)
  if (!fetches.has(fetch!.name)) throw notAllowed(fetch!.name)
  if (fetch!.name === 'var' && !OWN_VARIABLE.test(fetch!.args[0] ?? '')) throw notAllowed(`var(${fetch!.args[0] ?? ''})`, 'only txn., req. and res. variables')
  checkArguments(fetch!)
  checkConverters(converters)
}

/** Converters only, as HAProxy reads them in a word of their own after an expression. */
export function checkConverterCalls(text: string): void {
  checkConverters(parseCalls(text))
}

function checkConverters(converters: Call[]): void {
  for (const converter of converters) {
    if (!CONVERTERS.has(converter.name)) throw notAllowed(converter.name)
    checkArguments(converter)
  }
}

function checkArguments(call: Call): void {
  const shared = call.args.find((arg) => SHARED_VARIABLE.test(arg))
  if (shared !== undefined) throw notAllowed(shared, 'proc. and sess. variables are shared beyond this backend')
}
