import { backendName, type BackendRef } from './backend-ref.ts'
import { NOT_HONOURED, readFilters, readHeaderModifier, type RuleFeatures } from './gateway-filters.ts'
import { compareRules, type HeaderValue, MAX_HEADER_RULES, RULE_SEPARATOR, ruleParts } from './header-rules.ts'

/**
 * The filters of a route's backendRefs. The specification applies them to the requests sent to
 * that backendRef, after the rule's: hapedge serves RequestHeaderModifier and
 * ResponseHeaderModifier as the header set those requests get (the rule's, then the backendRef's),
 * found by the Service the split draws (render-headers.ts), so a changed value is a runtime map
 * edit as the rule's own. Other filter types on a backendRef are reported.
 */

/**
 * The header rules the requests sent to a backendRef get, when its filters change any: its header
 * modifiers after the rule's (afterRuleHeaders). Other filter types, and header modifiers on a
 * rule that redirects (it sends nothing to its backendRefs), are reported.
 */
export function readBackendHeaders(filters: readonly unknown[], where: string, features: RuleFeatures, reasons: string[]): HeaderValue[] | undefined {
  const added = new Map<string, string>()
  for (const [at, filter] of readFilters(filters, where, () => true, 'on one backendRef', reasons)) {
    if (filter.type === 'RequestHeaderModifier') readHeaderModifier(filter.requestHeaderModifier, 'req', `${at}.requestHeaderModifier`, added, reasons)
    else if (filter.type === 'ResponseHeaderModifier') readHeaderModifier(filter.responseHeaderModifier, 'res', `${at}.responseHeaderModifier`, added, reasons)
    else reasons.push(`${at}: ${filter.type} ${NOT_HONOURED} on a backendRef (RequestHeaderModifier and ResponseHeaderModifier are)`)
  }
  if (added.size === 0) return undefined
  if (features.redirect) return void reasons.push(`${where}.filters: header modifiers of a rule that redirects ${NOT_HONOURED} (it forwards nothing)`)
  const headers = afterRuleHeaders(features.headers ?? [], added)
  if (headers.length > MAX_HEADER_RULES)
    return void reasons.push(`${where}.filters: ${headers.length} header changes with the rule's; hapedge makes ${MAX_HEADER_RULES} at most per route`)
  return headers
}

/** A header's side and name (`req|x-team`): the rules of one name, whatever they do. */
const headerOf = (rule: string) => {
  const { op, name } = ruleParts(rule)
  return `${op.slice(0, 3)}${RULE_SEPARATOR}${name}`
}

const isAddition = (rule: string) => ruleParts(rule).op.endsWith('-add')

/**
 * The rule's header rules, then a backendRef's, as one set the frontend runs (each name's removal,
 * then its set, then its additions): a name the backendRef removes or sets ends as the backendRef
 * says whatever the rule did, so only its rules are kept for it; a name it only adds to keeps the
 * rule's rules, its addition coming after theirs (the next `|<n>`).
 */
export function afterRuleHeaders(own: readonly HeaderValue[], added: ReadonlyMap<string, string>): HeaderValue[] {
  const replaced = new Set([...added.keys()].filter((rule) => !isAddition(rule)).map(headerOf))
  const kept = own.filter(({ rule }) => !replaced.has(headerOf(rule)))
  const additions = (header: string) => kept.filter(({ rule }) => isAddition(rule) && headerOf(rule) === header).length
  const after = [...added].map(([rule, value]) => {
    const nth = isAddition(rule) ? additions(headerOf(rule)) + 1 : 1
    return { rule: nth > 1 ? `${rule}${RULE_SEPARATOR}${nth}` : rule, value }
  })
  return [...kept, ...after].sort((a, b) => compareRules(a.rule, b.rule))
}

/** What settleBackendHeaders reads of a weighted backendRef. */
interface HeadedBackend {
  ref: BackendRef
  unresolved?: true
  /** The header set of the requests sent to it, when its filters change any (readBackendHeaders). */
  headers?: HeaderValue[]
}

const sameHeaders = (a: readonly HeaderValue[], b: readonly HeaderValue[]) =>
  a.length === b.length && a.every((header, i) => header.rule === b[i]!.rule && header.value === b[i]!.value)

/**
 * A rule's weighted backendRefs with their header sets settled. When every one that resolves gets
 * the same (a rule's one weighted backendRef, say), that set is the rule's own for all its requests
 * and the backendRefs keep none; otherwise each keeps its own (the rule's when its filters change
 * none), found by the backend the split draws, which is a Service port's, not a backendRef's: two
 * backendRefs of one Service port asking for different sets are reported. Those that do not
 * resolve are answered 500 by hapedge, so their sets are dropped.
 */
export function settleBackendHeaders<B extends HeadedBackend>(backends: B[], features: RuleFeatures, at: string, reasons: string[]): B[] {
  if (!backends.some((backend) => backend.headers)) return backends
  const plain = backends.map(({ headers: _, ...backend }) => backend as B)
  const served = backends.filter((backend) => !backend.unresolved)
  const setOf = (backend: HeadedBackend) => backend.headers ?? features.headers ?? []
  if (served.every((backend) => sameHeaders(setOf(backend), setOf(served[0]!)))) {
    const shared = served[0]?.headers
    if (shared) features.headers = shared
    return plain
  }
  const byBackend = new Map<string, readonly HeaderValue[]>()
  for (const backend of served) {
    const name = backendName(backend.ref)
    const other = byBackend.get(name)
    if (other && !sameHeaders(other, setOf(backend)))
      reasons.push(
        `${at}.backendRefs: two weighted backendRefs of Service ${backend.ref.namespace}/${backend.ref.service} port ${backend.ref.port} with different header filters ${NOT_HONOURED} (its draw picks a Service port, not a backendRef)`,
      )
    byBackend.set(name, setOf(backend))
  }
  return backends.map((backend, i) => (backend.unresolved ? plain[i]! : backend))
}
