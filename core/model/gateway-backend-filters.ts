import { backendName, type BackendRef } from './backend-ref.ts'
import { NOT_HONOURED, readFilters, readHeaderModifier, readUrlRewrite, type RuleFeatures } from './gateway-filters.ts'
import { compareRules, type HeaderValue, MAX_HEADER_RULES, RULE_SEPARATOR, ruleParts } from './header-rules.ts'

/**
 * The filters of a route's backendRefs. The specification applies them to the requests sent to
 * that backendRef, after the rule's: hapedge serves RequestHeaderModifier and
 * ResponseHeaderModifier as the header set those requests get (the rule's, then the backendRef's),
 * and an HTTPRoute's URLRewrite as their new path and Host, each found by the Service the split
 * draws (render-headers.ts, render-split-values.ts), so a changed value is a runtime map edit as the
 * rule's own. Other filter types on a backendRef are reported.
 */

/** What a backendRef's filters give the requests sent to it, each only when they change it. */
export interface BackendFeatures {
  /** The header set: the rule's header rules, then the backendRef's (afterRuleHeaders). */
  headers?: HeaderValue[]
  /** URLRewrite's path: the new path, in place of the rule's. */
  rewrite?: RuleFeatures['rewrite']
  /** URLRewrite's hostname: the Host the Service is sent, in place of the rule's. */
  upstreamHost?: string
}

/**
 * What a backendRef's filters give the requests sent to it: its header modifiers after the
 * rule's (afterRuleHeaders), and an HTTPRoute's URLRewrite after the rule's (its hostname and a
 * ReplaceFullPath replace the rule's; a ReplacePrefixMatch replaces the prefix the rule's match
 * took, which a rule that rewrites the path too has taken away, so that is reported). Other filter
 * types, and filters on a rule that redirects (it sends nothing to its backendRefs), are reported.
 * `prefixOnly`: every match of the rule is a PathPrefix (matchesPrefixOnly).
 */
export function readBackendFilters(
  filters: readonly unknown[],
  where: string,
  { kind, prefixOnly }: { kind: string; prefixOnly: boolean },
  features: RuleFeatures,
  reasons: string[],
): BackendFeatures | undefined {
  const added = new Map<string, string>()
  const own: BackendFeatures = {}
  const honoured =
    kind === 'HTTPRoute' ? 'RequestHeaderModifier, ResponseHeaderModifier and URLRewrite are' : 'RequestHeaderModifier and ResponseHeaderModifier are'
  for (const [at, filter] of readFilters(filters, where, () => true, 'on one backendRef', reasons)) {
    if (filter.type === 'RequestHeaderModifier') readHeaderModifier(filter.requestHeaderModifier, 'req', `${at}.requestHeaderModifier`, added, reasons)
    else if (filter.type === 'ResponseHeaderModifier') readHeaderModifier(filter.responseHeaderModifier, 'res', `${at}.responseHeaderModifier`, added, reasons)
    else if (filter.type === 'URLRewrite' && kind === 'HTTPRoute') {
      readUrlRewrite(filter, at, prefixOnly, own, reasons)
      if (own.rewrite?.path?.capture === 'rest' && features.rewrite)
        reasons.push(
          `${at}.urlRewrite.path: a ReplacePrefixMatch on a backendRef whose rule rewrites the path too ${NOT_HONOURED} (the prefix it replaces is gone)`,
        )
    } else reasons.push(`${at}: ${filter.type} ${NOT_HONOURED} on a backendRef (${honoured})`)
  }
  if (added.size === 0 && own.rewrite === undefined && own.upstreamHost === undefined) return undefined
  if (features.redirect) return void reasons.push(`${where}.filters: filters on a backendRef of a rule that redirects ${NOT_HONOURED} (it forwards nothing)`)
  if (added.size === 0) return own
  const headers = afterRuleHeaders(features.headers ?? [], added)
  if (headers.length > MAX_HEADER_RULES)
    return void reasons.push(`${where}.filters: ${headers.length} header changes with the rule's; hapedge makes ${MAX_HEADER_RULES} at most per route`)
  return { ...own, headers }
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

/** What settleBackendFeatures reads of a weighted backendRef. */
interface FeaturedBackend extends BackendFeatures {
  ref: BackendRef
  unresolved?: true
}

/** Each feature a backendRef may change, and what a report calls its filters. */
const FEATURES = [
  ['headers', 'header filters'],
  ['rewrite', 'URLRewrite paths'],
  ['upstreamHost', 'URLRewrite hostnames'],
] as const satisfies readonly (readonly [keyof BackendFeatures, string])[]

/** Feature values are plain data (header rules in order, a rewrite's parts, a name): equal when written alike. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * A rule's weighted backendRefs with their features settled, each feature on its own. When every
 * one that resolves gets the same (a rule's one weighted backendRef, say), that value is the
 * rule's own for all its requests and the backendRefs keep none; otherwise each keeps its own (the
 * rule's when its filters change none), found by the backend the split draws, which is a Service
 * port's, not a backendRef's: two backendRefs of one Service port asking for different values are
 * reported. Those that do not resolve are answered 500 by hapedge, so their values are dropped.
 */
export function settleBackendFeatures<B extends FeaturedBackend>(backends: B[], features: RuleFeatures, at: string, reasons: string[]): B[] {
  let settled = backends
  for (const [feature, filters] of FEATURES) {
    if (!settled.some((backend) => backend[feature] !== undefined)) continue
    const plain = settled.map(({ [feature]: _, ...backend }) => backend as B)
    const served = settled.filter((backend) => !backend.unresolved)
    const effective = (backend: FeaturedBackend) => backend[feature] ?? features[feature]
    if (served.every((backend) => same(effective(backend), effective(served[0]!)))) {
      const shared = served[0]?.[feature]
      if (shared !== undefined) Object.assign(features, { [feature]: shared })
      settled = plain
      continue
    }
    const byBackend = new Map<string, unknown>()
    for (const backend of served) {
      const name = backendName(backend.ref)
      if (byBackend.has(name) && !same(byBackend.get(name), effective(backend)))
        reasons.push(
          `${at}.backendRefs: two weighted backendRefs of Service ${backend.ref.namespace}/${backend.ref.service} port ${backend.ref.port} with different ${filters} ${NOT_HONOURED} (its draw picks a Service port, not a backendRef)`,
        )
      byBackend.set(name, effective(backend))
    }
    const kept = settled
    settled = kept.map((backend, i) => (backend.unresolved ? plain[i]! : backend))
  }
  return settled
}
