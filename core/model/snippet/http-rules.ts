import { quote } from '../../syntax/fields.ts'
import { readCondition } from './acl.ts'
import { notAllowed } from './refusal.ts'
import { checkSampleExpression } from './sample-expression.ts'
import { CONDITION_START, INTEGER, oneOf, readOptions, readValues, type Value } from './values.ts'
import { FETCHES, OWN_VARIABLE } from './vocabulary.ts'
import type { WordReader } from './words.ts'

type Direction = 'http-request' | 'http-response'

interface Action {
  /** Which rule sets have it; both when absent. */
  only?: Direction
  /** Reads the action's arguments, after its keyword. */
  read(reader: WordReader, keyword: string): void
}

const values =
  (...kinds: Value[]): Action['read'] =>
  (reader, keyword) =>
    readValues(reader, kinds, keyword)

/** The response an action builds from strings: never from a file (`file`, `lf-file`, `errorfile`, `errorfiles`). */
const RESPONSE_OPTIONS: ReadonlyMap<string, readonly Value[]> = new Map<string, Value[]>([
  ['status', [INTEGER]],
  ['content-type', ['word']],
  ['default-errorfiles', []],
  ['string', ['word']],
  ['lf-string', ['format']],
  ['hdr', ['word', 'format']],
])

/** `deny` answers as `return` does, and takes `deny_status` as another name for `status`. */
const DENY_OPTIONS: ReadonlyMap<string, readonly Value[]> = new Map([...RESPONSE_OPTIONS, ['deny_status', [INTEGER]]])

const REDIRECT_OPTIONS: ReadonlyMap<string, readonly Value[]> = new Map<string, Value[]>([
  ['location', ['format']],
  ['prefix', ['format']],
  ['scheme', ['format']],
  ['code', [oneOf('301', '302', '303', '307', '308')]],
  ['drop-query', []],
  ['append-slash', []],
  ['ignore-empty', []],
  ['set-cookie', ['word']],
  ['clear-cookie', ['word']],
])

const LOG_LEVELS = oneOf('emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug', 'silent')

/**
 * The `http-request` and `http-response` actions a snippet may use: headers, the path and
 * query, answers built from strings, redirects, the status, the log level and this
 * transaction's variables. Not allowed, among others: map and ACL writes (`set-map`,
 * `add-acl`…), Lua, services, SPOE, stick counters, caches, `set-dst`/`set-src`, `do-resolve`
 * and answers read from files.
 */
const ACTIONS: ReadonlyMap<string, Action> = new Map<string, Action>([
  ['set-header', { read: values('word', 'format') }],
  ['add-header', { read: values('word', 'format') }],
  [
    'del-header',
    {
      read: (reader, keyword) => {
        readValues(reader, ['word'], keyword)
        if (reader.accept('-m')) readValues(reader, [oneOf('str', 'beg', 'end', 'sub', 'reg')], '-m')
      },
    },
  ],
  ['replace-header', { read: values('word', 'word', 'format') }],
  ['replace-value', { read: values('word', 'word', 'format') }],
  ['set-path', { only: 'http-request', read: values('format') }],
  ['set-pathq', { only: 'http-request', read: values('format') }],
  ['set-query', { only: 'http-request', read: values('format') }],
  ['set-uri', { only: 'http-request', read: values('format') }],
  ['set-method', { only: 'http-request', read: values('format') }],
  ['replace-path', { only: 'http-request', read: values('word', 'format') }],
  ['replace-pathq', { only: 'http-request', read: values('word', 'format') }],
  ['replace-uri', { only: 'http-request', read: values('word', 'format') }],
  [
    'set-status',
    {
      only: 'http-response',
      read: (reader, keyword) => {
        readValues(reader, [INTEGER], keyword)
        if (reader.accept('reason')) readValues(reader, ['word'], 'reason')
      },
    },
  ],
  ['set-log-level', { read: values(LOG_LEVELS) }],
  ['allow', { read: () => {} }],
  ['deny', { read: (reader) => readOptions(reader, DENY_OPTIONS) }],
  ['return', { read: (reader) => readOptions(reader, RESPONSE_OPTIONS) }],
  ['redirect', { read: (reader) => readOptions(reader, REDIRECT_OPTIONS) }],
  ['disable-l7-retry', { only: 'http-request', read: () => {} }],
])

/** `set-var(<var>[,<cond>…])`, `set-var-fmt(…)` and `unset-var(<var>)` on this transaction's variables. */
const VARIABLE_ACTIONS: ReadonlyMap<string, Action['read']> = new Map<string, Action['read']>([
  ['set-var', (reader, keyword) => checkSampleExpression(reader.take(`a sample expression after ${quote(keyword)}`), FETCHES)],
  ['set-var-fmt', values('format')],
  ['unset-var', () => {}],
])

/** `set-var(txn.x,ifnotempty)` → its action name and what is inside the parentheses. */
const CALL = /^([a-z0-9-]+)(?:\((.*)\))?$/

/** An `http-request` or `http-response` rule: an allowed action, its arguments, then an optional condition. */
export function readHttpRule(reader: WordReader, direction: Direction): void {
  const word = reader.take(`an action after ${quote(direction)}`)
  const [, name = word, inside] = CALL.exec(word) ?? []
  const variable = VARIABLE_ACTIONS.get(name)
  if (variable && inside !== undefined) {
    const [target = '', ...conditions] = inside.split(',')
    if (!OWN_VARIABLE.test(target)) throw notAllowed(target, 'only txn., req. and res. variables')
    const unknown = conditions.find((condition) => !/^if[a-z]+$/.test(condition))
    if (unknown !== undefined) throw notAllowed(unknown)
    variable(reader, name)
  } else {
    const action = inside === undefined ? ACTIONS.get(name) : undefined
    if (!action || (action.only && action.only !== direction)) throw notAllowed(name)
    action.read(reader, name)
  }
  if (reader.done) return
  const next = reader.take('a condition')
  if (!CONDITION_START.has(next)) throw notAllowed(next)
  readCondition(reader)
}
