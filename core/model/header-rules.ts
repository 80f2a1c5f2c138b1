import type { HeaderVariable } from '../annotations/header-variables.ts'
import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import { tellInto } from './tell-notices.ts'

/**
 * Request and response headers an Ingress sets, adds or removes. A header's NAME is written into
 * a frontend rule (HAProxy 2.6 names a header in the rule, never at request time), so only names
 * of a safe shape are accepted, and a new name is a reload; its VALUE is a map value HAProxy reads
 * at request time (render-headers.ts), so a changed value is a runtime map edit.
 */

/** What a rule does, in the order the frontend runs them: removals first, then sets, then additions. */
export const HEADER_OPS = ['req-del', 'req-set', 'req-add', 'res-del', 'res-set', 'res-add'] as const
export type HeaderOp = (typeof HEADER_OPS)[number]

/**
 * One header rule of a route and its value: `rule` is `<op>|<lowercase name>`, with `|<n>` for
 * the n-th (n ≥ 2) addition of one name, and `|<variable>` when a translated NGINX snippet's value
 * is one of HEADER_VARIABLES (HAProxy fills it in: the rule names it, so it is part of the rule).
 * Removals and variables have the value ''.
 */
export interface HeaderValue {
  rule: string
  value: string
}

export const RULE_SEPARATOR = '|'

export interface RuleParts {
  op: HeaderOp
  name: string
  /** 1 for a set, a removal and the first addition of a name. */
  nth: number
  variable?: HeaderVariable
}

/** A rule's parts: after the op and the name, a number is the addition's place and a word the variable. */
export function ruleParts(rule: string): RuleParts {
  const [op = '', name = '', ...rest] = rule.split(RULE_SEPARATOR)
  const nth = rest.find((part) => /^\d+$/.test(part))
  const variable = rest.find((part) => !/^\d+$/.test(part))
  return { op: op as HeaderOp, name, nth: nth === undefined ? 1 : Number(nth), ...(variable === undefined ? {} : { variable: variable as HeaderVariable }) }
}

/** The features, by the op they ask for; custom-headers (a ConfigMap's entries) before response-set-header, so the annotation's value wins. */
const FEATURE_OPS: readonly (readonly [FeatureName, HeaderOp])[] = [
  ['request-del-header', 'req-del'],
  ['request-set-header', 'req-set'],
  ['request-add-header', 'req-add'],
  ['response-del-header', 'res-del'],
  ['custom-headers', 'res-set'],
  ['response-set-header', 'res-set'],
  ['response-add-header', 'res-add'],
]

/** A header value as written: no control character (a line end would end the header), as RFC 9110's field-value. */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000a-\u001f\u007f]/

/** The names hapedge writes unquoted into its rules: an RFC 9110 token without the characters HAProxy's parser gives a meaning (`#`, quotes, `$`, `\`, …). */
const SAFE_NAME = /^[a-z0-9][a-z0-9_.-]*$/

/** The most header rules one Ingress may ask for: each name is a frontend rule every request runs. */
export const MAX_HEADER_RULES = 32

/** Hop-by-hop and framing headers (RFC 9110 §7.6.1, §6.4): HTTP itself owns them, in both directions. */
const PROTOCOL_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length']

/** Request headers hapedge routes by or the Services trust it for. */
const TRUSTED_REQUEST_HEADERS = ['host', 'forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip']

/** Why hapedge does not touch a header, if it does not. */
export function refusedHeader(op: HeaderOp, name: string): string | undefined {
  if (!SAFE_NAME.test(name)) return `"${name}": hapedge writes header names into HAProxy's rules and accepts only letters, digits, "-", "_" and "."`
  if (PROTOCOL_HEADERS.includes(name)) return `"${name}" is a hop-by-hop or framing header that HAProxy manages`
  if (name.startsWith('x-hapedge-')) return `"${name}" is hapedge's own header`
  if (op.startsWith('req-') && TRUSTED_REQUEST_HEADERS.includes(name))
    return name === 'host'
      ? '"host" selects the route, and the Service is sent the Host the client asked for'
      : `"${name}" is set by hapedge for the Services, which trust it to name the client and its scheme`
  return undefined
}

export interface IngressHeaders {
  /** Sorted by rule. */
  headers: HeaderValue[]
  notices: AnnotationNotice[]
}

/** A header as a ConfigMap's entry gives it (custom-headers). */
export interface NamedValue {
  name: string
  value: string
  variable?: HeaderVariable
}

/** The headers a feature asks for: custom-headers's from its ConfigMap's entries. */
function askedFor(feature: FeatureName, features: Features, customHeaders: readonly NamedValue[] | undefined) {
  return (feature === 'custom-headers' ? customHeaders : features[feature]) as readonly (string | NamedValue)[] | undefined
}

/**
 * The header rules an Ingress's features ask for, and what is not done as written (one notice per
 * annotation that asked); `customHeaders`: the entries of the ConfigMap custom-headers names, when read.
 */
export function readHeaders(features: Features, annotationsOf: (feature: FeatureName) => string[], customHeaders?: readonly NamedValue[]): IngressHeaders {
  // Asked of every Ingress, and most ask for no header.
  if (!customHeaders?.length && FEATURE_OPS.every(([feature]) => features[feature] === undefined)) return { headers: [], notices: [] }
  const rules = new Map<string, string>()
  /** The rule each `<op>|<name>` set last: a name set again (as text or as a variable) keeps only the last. */
  const setBy = new Map<string, string>()
  const notices: AnnotationNotice[] = []
  const tell = tellInto(notices, annotationsOf)
  for (const [feature, op] of FEATURE_OPS) {
    const asked = askedFor(feature, features, customHeaders)
    if (asked === undefined) continue
    const added = new Map<string, number>()
    for (const item of asked) {
      const { name: given, value, variable } = typeof item === 'string' ? { name: item, value: '', variable: undefined } : item
      const name = given.toLowerCase()
      const refused = refusedHeader(op, name)
      if (refused !== undefined) {
        tell(feature, `${refused}; ignored`)
        continue
      }
      if (CONTROL_CHARACTER.test(value)) {
        tell(feature, `"${given}": the value must not contain control characters (a line end, say); ignored`)
        continue
      }
      if (!op.endsWith('-del') && value === '' && variable === undefined) {
        tell(feature, `"${given}" has an empty value (a ${op.startsWith('req-') ? 'request' : 'response'}-del-header removes a header); ignored`)
        continue
      }
      const nth = (added.get(name) ?? 0) + 1
      if (op.endsWith('-add')) added.set(name, nth)
      const rule = [op, name, ...(op.endsWith('-add') && nth > 1 ? [String(nth)] : []), ...(variable === undefined ? [] : [variable])].join(RULE_SEPARATOR)
      if (op.endsWith('-set')) {
        const previous = setBy.get(`${op}${RULE_SEPARATOR}${name}`)
        if (previous !== undefined) {
          tell(feature, `"${given}" is set more than once: the last value is used`)
          rules.delete(previous)
        }
        setBy.set(`${op}${RULE_SEPARATOR}${name}`, rule)
      }
      rules.set(rule, value)
    }
  }
  const headers = [...rules].map(([rule, value]) => ({ rule, value })).sort((a, b) => compareRules(a.rule, b.rule))
  if (headers.length > MAX_HEADER_RULES) {
    for (const [feature] of FEATURE_OPS)
      if (askedFor(feature, features, customHeaders) !== undefined)
        tell(feature, `more than ${MAX_HEADER_RULES} header rules on one Ingress: only the first ${MAX_HEADER_RULES} (removals, sets, additions) are kept`)
    headers.length = MAX_HEADER_RULES
  }
  return { headers, notices }
}

/** Rules in the order the frontend runs them: by op (HEADER_OPS), then name, then occurrence, then variable (text first). */
export function compareRules(a: string, b: string): number {
  const partsA = ruleParts(a)
  const partsB = ruleParts(b)
  const byOp = HEADER_OPS.indexOf(partsA.op) - HEADER_OPS.indexOf(partsB.op)
  if (byOp !== 0) return byOp
  if (partsA.name !== partsB.name) return partsA.name < partsB.name ? -1 : 1
  if (partsA.nth !== partsB.nth) return partsA.nth - partsB.nth
  const [variableA = '', variableB = ''] = [partsA.variable, partsB.variable]
  return variableA < variableB ? -1 : variableA > variableB ? 1 : 0
}
