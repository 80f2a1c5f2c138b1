import { quote } from '../../syntax/fields.ts'
import { checkAclName, readAclExpression } from './acl.ts'
import { readHttpRule } from './http-rules.ts'
import { notAllowed } from './refusal.ts'
import { INTEGER, oneOf, readOptions, readValue, readValues, TIME, type Value } from './values.ts'
import type { WordReader } from './words.ts'

type Directive = (reader: WordReader, keyword: string) => void

const NOTHING: ReadonlySet<string> = new Set()

/** Options without values a backend may set; `no option …` turns them off again. */
const SWITCHES: ReadonlySet<string> = new Set([
  'abortonclose',
  'allbackups',
  'checkcache',
  'http-buffer-request',
  'http-keep-alive',
  'http-no-delay',
  'http-pretend-keepalive',
  'http-server-close',
  'httpclose',
  'independent-streams',
  'log-health-checks',
  'nolinger',
  'persist',
  'prefer-last-server',
  'redispatch',
  'srvtcpka',
  'tcp-smart-connect',
])

/** Every option a backend may set, with the values it takes. */
const OPTIONS: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  ...[...SWITCHES].map((option): [string, Directive] => [option, () => {}]),
  [
    'forwardfor',
    (reader) =>
      readOptions(
        reader,
        new Map([
          ['except', ['word']],
          ['header', ['word']],
          ['if-none', []],
        ]),
        NOTHING,
      ),
  ],
  [
    'originalto',
    (reader) =>
      readOptions(
        reader,
        new Map([
          ['except', ['word']],
          ['header', ['word']],
        ]),
        NOTHING,
      ),
  ],
  // [<method>] [<uri>] [<version>]: the health check's request line.
  [
    'httpchk',
    (reader) => {
      for (let words = 0; words < 3 && !reader.done; words++) reader.take('a word')
    },
  ],
])

/** What an HTTP health check may match in the answer: its status or body, by string or regex. */
const EXPECT_MATCHES: ReadonlySet<string> = new Set(['status', 'rstatus', 'string', 'rstring'])

const EXPECT_OPTIONS: ReadonlyMap<string, readonly Value[]> = new Map<string, Value[]>([
  ['min-recv', [{ pattern: /^-?\d+$/, what: 'a number of bytes' }]],
  ['comment', ['word']],
  ['ok-status', ['word']],
  ['error-status', ['word']],
  ['tout-status', ['word']],
])

/** Health-check statements: the request sent and the answer expected, never where it is sent (`connect`). */
const HTTP_CHECKS: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  [
    'send',
    (reader) =>
      readOptions(
        reader,
        new Map<string, Value[]>([
          ['meth', ['word']],
          ['uri', ['word']],
          ['uri-lf', ['format']],
          ['ver', ['word']],
          ['hdr', ['word', 'format']],
          ['body', ['word']],
          ['body-lf', ['format']],
          ['comment', ['word']],
        ]),
        NOTHING,
      ),
  ],
  [
    'expect',
    (reader) => {
      readOptions(reader, EXPECT_OPTIONS, new Set(['!', ...[...EXPECT_MATCHES].flatMap((match) => [match, `!${match}`])]))
      reader.accept('!')
      const match = reader.take('a match after "http-check expect"').replace(/^!/, '')
      if (!EXPECT_MATCHES.has(match)) throw notAllowed(match)
      readValues(reader, ['word'], match)
    },
  ],
  ['disable-on-404', () => {}],
  ['send-state', () => {}],
  ['comment', (reader) => readValues(reader, ['word'], 'comment')],
])

/** What `balance` may name: the algorithms that hash or count nothing beyond this request. */
const BALANCE = /^(roundrobin|static-rr|leastconn|first|source|uri|url_param|random(\(\d+\))?|rdp-cookie(\([\w-]+\))?|hdr\([\w!#$%&'*+.^`|~-]+\))$/

const BALANCE_OPTIONS: ReadonlyMap<string, readonly Value[]> = new Map<string, Value[]>([
  ['whole', []],
  ['len', [INTEGER]],
  ['depth', [INTEGER]],
  ['path-only', []],
  ['check_post', []],
  ['use_domain_only', []],
])

const COOKIE_OPTIONS: ReadonlyMap<string, readonly Value[]> = new Map<string, Value[]>([
  ...['rewrite', 'insert', 'prefix', 'indirect', 'nocache', 'postonly', 'preserve', 'httponly', 'secure', 'dynamic'].map((option): [string, Value[]] => [
    option,
    [],
  ]),
  ['domain', ['word']],
  ['maxidle', [TIME]],
  ['maxlife', [TIME]],
  ['attr', ['word']],
])

/**
 * The directives a backend snippet may hold, by first word. Everything else is refused: other
 * sections, server lines, `stats`, `errorfile`/`errorloc`, `tcp-request`, `use-server`,
 * `source`, `log`, `filter`, `stick`, `.if`…
 */
export const DIRECTIVES: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  [
    'acl',
    (reader) => {
      checkAclName(reader.take('an ACL name after "acl"'))
      readAclExpression(reader)
    },
  ],
  ['http-request', (reader) => readHttpRule(reader, 'http-request')],
  ['http-response', (reader) => readHttpRule(reader, 'http-response')],
  ['http-check', (reader, keyword) => subcommand(reader, keyword, HTTP_CHECKS)],
  [
    'timeout',
    (reader) => {
      readValue(reader, oneOf('check', 'connect', 'http-keep-alive', 'http-request', 'queue', 'server', 'server-fin', 'tarpit', 'tunnel'), 'timeout')
      readValues(reader, [TIME], 'timeout')
    },
  ],
  ['option', (reader, keyword) => subcommand(reader, keyword, OPTIONS)],
  [
    'no',
    (reader) => {
      readValue(reader, oneOf('option'), 'no')
      readValue(reader, SWITCHES, 'no option')
    },
  ],
  [
    'balance',
    (reader) => {
      const algorithm = reader.take('an algorithm after "balance"')
      if (!BALANCE.test(algorithm)) throw notAllowed(algorithm.replace(/\(.*/, ''))
      if (algorithm === 'url_param') readValues(reader, ['word'], 'url_param')
      readOptions(reader, BALANCE_OPTIONS, NOTHING)
    },
  ],
  [
    'hash-type',
    (reader) => {
      readValue(reader, oneOf('map-based', 'consistent'), 'hash-type')
      if (!reader.done) readValue(reader, oneOf('sdbm', 'djb2', 'wt6', 'crc32', 'none'), 'hash-type')
      if (!reader.done) readValue(reader, oneOf('avalanche'), 'hash-type')
    },
  ],
  ['retries', (reader) => readValues(reader, [INTEGER], 'retries')],
  ['retry-on', (reader) => readEach(reader, { pattern: /^[a-z0-9-]+$/, what: 'a retry condition (such as conn-failure or 503)' }, 'retry-on')],
  [
    'cookie',
    (reader) => {
      readValues(reader, ['word'], 'cookie')
      readOptions(reader, COOKIE_OPTIONS, NOTHING)
    },
  ],
  [
    'compression',
    (reader) => {
      const what = readValue(reader, oneOf('algo', 'type', 'offload'), 'compression')
      if (what === 'algo') readEach(reader, oneOf('identity', 'gzip', 'deflate', 'raw-deflate'), 'compression algo')
      if (what === 'type') readEach(reader, 'word', 'compression type')
    },
  ],
  ['http-reuse', (reader) => readValues(reader, [oneOf('never', 'safe', 'aggressive', 'always')], 'http-reuse')],
])

/** One value or more, to the end of the line. */
function readEach(reader: WordReader, value: Value, after: string): void {
  do readValue(reader, value, after)
  while (!reader.done)
}

/** `option httpchk`, `http-check send`…: a second keyword chooses the grammar. */
function subcommand(reader: WordReader, keyword: string, grammar: ReadonlyMap<string, Directive>): void {
  const name = reader.take(`a keyword after ${quote(keyword)}`)
  const read = grammar.get(name)
  if (!read) throw notAllowed(name)
  read(reader, name)
}

/** Reads a whole line with its directive's grammar; a word left over is refused by name. */
export function readDirective(reader: WordReader): void {
  const keyword = reader.take('a directive')
  const read = DIRECTIVES.get(keyword)
  if (!read) throw notAllowed(keyword)
  read(reader, keyword)
  if (!reader.done) throw notAllowed(reader.peek()!)
}
