import type { Features } from './features.ts'
import { HEADER_VARIABLES, isHeaderVariable } from './header-variables.ts'
import { type NginxDirective, position, readNginxDirectives } from './nginx-directives.ts'
import { FIELD_VALUE, type Header, TOKEN } from './values.ts'

/**
 * NGINX snippets (ingress-nginx `configuration-snippet`/`server-snippet`, NGINX Inc.'s
 * `location-snippets`/`server-snippets`) translated through a closed vocabulary: directives whose
 * meaning hapedge already models become the same typed features as the annotations (the header
 * features, `proxy-ssl-verify`), so they are rendered, checked and changed at runtime like them.
 * One directive outside the vocabulary, one option or one variable hapedge does not model refuses
 * the whole snippet, naming the directive and where it is: nothing of it is half-applied, and none
 * of its text reaches HAProxy except as a header value kept in a map (render-headers.ts).
 */

/** The features a snippet can ask for. */
export type SnippetFeatures = Pick<
  Features,
  'request-set-header' | 'request-del-header' | 'response-set-header' | 'response-add-header' | 'response-del-header' | 'proxy-ssl-verify'
>

export type SnippetScope = 'location' | 'server'

export type SnippetTranslation = { features: SnippetFeatures; warnings: string[] } | { refused: string }

interface Translating {
  features: SnippetFeatures
  warnings: string[]
}

/** A directive's translation into `out`, or why it is refused. */
type Translate = (directive: NginxDirective, out: Translating) => string | undefined

/** NGINX's `add_header` without `always` adds only to these statuses (ngx_http_headers_module). */
const ADD_HEADER_STATUSES = '200, 201, 204, 206, 301, 302, 303, 304, 307 and 308'

/** The header-list features, by what the directive does and to which side. */
const LISTS = {
  'req-set': 'request-set-header',
  'req-del': 'request-del-header',
  'res-set': 'response-set-header',
  'res-add': 'response-add-header',
  'res-del': 'response-del-header',
} as const

function push(out: Translating, op: keyof typeof LISTS, header: Header) {
  const feature = LISTS[op]
  if (op.endsWith('-del')) (out.features[feature as 'request-del-header'] ??= []).push(header.name)
  else (out.features[feature as 'request-set-header'] ??= []).push(header)
}

/** A header value as written: text, or one of HEADER_VARIABLES as the whole value. */
function headerValue(raw: string): Pick<Header, 'value' | 'variable'> | string {
  if (!raw.includes('$')) return FIELD_VALUE.test(raw) ? { value: raw } : `the value ${JSON.stringify(raw)} holds a control character`
  const variable = /^\$(?:([A-Za-z0-9_]+)|\{([A-Za-z0-9_]+)\})$/.exec(raw)
  const name = variable?.[1] ?? variable?.[2]
  if (name === undefined) return `the value ${JSON.stringify(raw)} mixes text and variables; a value is either text or one variable (${VARIABLES})`
  return isHeaderVariable(name) ? { value: '', variable: name } : `$${name} is not a variable hapedge fills in (${VARIABLES})`
}

const VARIABLES = HEADER_VARIABLES.map((name) => `$${name}`).join(', ')

/** `Name: value` (headers-more's form): an empty or missing value clears the header. */
function namedValue(argument: string, out: Translating, set: 'req-set' | 'res-set'): string | undefined {
  const colon = argument.indexOf(':')
  const name = (colon < 0 ? argument : argument.slice(0, colon)).trim()
  const raw = colon < 0 ? '' : argument.slice(colon + 1).trim()
  return header(name, raw, out, set)
}

function header(name: string, raw: string, out: Translating, op: 'req-set' | 'res-set' | 'res-add'): string | undefined {
  if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not a header name`
  if (raw === '') {
    if (op === 'res-add') return `an empty value adds nothing`
    push(out, op === 'req-set' ? 'req-del' : 'res-del', { name, value: '' })
    return undefined
  }
  const value = headerValue(raw)
  if (typeof value === 'string') return value
  push(out, op, { name, ...value })
  return undefined
}

function names(args: string[], out: Translating, op: 'req-del' | 'res-del'): string | undefined {
  for (const name of args) {
    if (!TOKEN.test(name) || name.includes('*')) return `${JSON.stringify(name)} is not a header name (wildcards are not translated)`
    push(out, op, { name, value: '' })
  }
  return undefined
}

/** headers-more's options (`-s` statuses, `-t` types, `-r` only if present) select answers hapedge's header rules do not: refused. */
const withoutOptions = (directive: NginxDirective, then: () => string | undefined) => {
  const option = directive.args.find((arg) => arg.startsWith('-'))
  if (option !== undefined) return `its option ${option} is not translated`
  if (directive.args.length === 0) return 'it names no header'
  return then()
}

const arity = (directive: NginxDirective, counts: readonly number[], then: () => string | undefined) =>
  counts.includes(directive.args.length) ? then() : `it takes ${counts.join(' or ')} arguments, not ${directive.args.length}`

function eachOf(args: string[], translate: (arg: string) => string | undefined): string | undefined {
  for (const arg of args) {
    const refused = translate(arg)
    if (refused !== undefined) return refused
  }
  return undefined
}

/** The vocabulary: NGINX directive → what it means in hapedge's model. */
const VOCABULARY: Record<string, Translate> = {
  more_set_headers: (d, out) => withoutOptions(d, () => eachOf(d.args, (arg) => namedValue(arg, out, 'res-set'))),
  more_clear_headers: (d, out) => withoutOptions(d, () => names(d.args, out, 'res-del')),
  more_set_input_headers: (d, out) => withoutOptions(d, () => eachOf(d.args, (arg) => namedValue(arg, out, 'req-set'))),
  more_clear_input_headers: (d, out) => withoutOptions(d, () => names(d.args, out, 'req-del')),
  proxy_set_header: (d, out) => arity(d, [2], () => header(d.args[0]!, d.args[1]!, out, 'req-set')),
  proxy_hide_header: (d, out) => arity(d, [1], () => names(d.args, out, 'res-del')),
  add_header: (d, out) =>
    arity(d, [2, 3], () => {
      if (d.args.length === 3 && d.args[2] !== 'always') return `its third argument must be "always", not ${JSON.stringify(d.args[2])}`
      if (d.args.length === 2)
        out.warnings.push(
          `${position(d)}: without "always" NGINX adds ${d.args[0]} only to answers ${ADD_HEADER_STATUSES}; hapedge adds it to every answer of the Service`,
        )
      return header(d.args[0]!, d.args[1]!, out, 'res-add')
    }),
  proxy_ssl_verify: (d, out) =>
    arity(d, [1], () => {
      if (d.args[0] !== 'on' && d.args[0] !== 'off') return `its value must be "on" or "off", not ${JSON.stringify(d.args[0])}`
      out.features['proxy-ssl-verify'] = d.args[0] === 'on'
      return undefined
    }),
}

/** The directives hapedge translates, as the notes and the compatibility table list them. */
export const SNIPPET_VOCABULARY = Object.keys(VOCABULARY)

/** Header directives of a server snippet: NGINX applies them to every location of the host, hapedge to this Ingress's routes. */
const HEADER_DIRECTIVES = SNIPPET_VOCABULARY.filter((name) => name !== 'proxy_ssl_verify')

/** A snippet's text as hapedge's features, or why the whole snippet is refused. */
export function translateNginxSnippet(text: string, scope: SnippetScope): SnippetTranslation {
  const directives = readNginxDirectives(text)
  if (!Array.isArray(directives)) return directives
  const out: Translating = { features: {}, warnings: [] }
  for (const directive of directives) {
    const translate = VOCABULARY[directive.name]
    if (translate === undefined) return { refused: `${position(directive)} is not in hapedge's vocabulary (${SNIPPET_VOCABULARY.join(', ')})` }
    const refused = translate(directive, out)
    if (refused !== undefined) return { refused: `${position(directive)}: ${refused}` }
    if (scope === 'server' && HEADER_DIRECTIVES.includes(directive.name))
      out.warnings.push(`${position(directive)}: NGINX applies a server snippet's headers to every Ingress of the host; hapedge to this Ingress's routes`)
  }
  if (directives.length === 0) return { refused: 'the snippet holds no directive' }
  return { features: out.features, warnings: out.warnings }
}
