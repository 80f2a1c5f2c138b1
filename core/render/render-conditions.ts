import type { RouteChain } from '../model/condition-chains.ts'
import { REGEX_PLACES } from '../model/condition-chains.ts'
import type { HostConfig } from '../model/derive-host.ts'
import { CONDITION_RULE, conditionDimensions, METHOD_DIMENSION, PATH_DIMENSION } from '../model/gateway-conditions.ts'
import { regexLiteral } from '../syntax/safe-regex-emit.ts'
import { FILES } from './files.ts'
import type { SetVar, AddEntry } from './route-keys.ts'

/**
 * HTTPRoute method, header and query parameter matches at request time, as data. A path with
 * conditional matches has a chain (condition-chains.ts) whose id the route maps give; its places
 * are bits of a mask. For each dimension (the method, a header, a query parameter) the condition
 * map gives the places that do not test it (`id|dim`), and those whose Exact value is the
 * request's (`id|dim|<value in hex>`); the regex map, the place whose RegularExpression the
 * value holds (`id|dim|<n>|<value>`, one lookup per n up to REGEX_PLACES). The mask is the
 * intersection over the dimensions; its lowest bit is the first place the request meets, and
 * the keys map's `id|<bit>` gives that place's key, with which the route maps and every per-route map are read
 * again. Values, places and their order are map data: a changed value, a match added or taken
 * away, a changed precedence is a runtime map edit. Only the names are in the rules (HAProxy
 * fetches headers and parameters by names in its configuration), so a name no match tested
 * before, or its first RegularExpression, is a reload.
 */

export type ConditionMap = typeof FILES.conditionMap | typeof FILES.conditionKeysMap | typeof FILES.conditionRegexMap

/** Between the parts of a condition key: no chain id, dimension or hex value holds it. */
const SEPARATOR = '|'

/** A value as HAProxy's `hex` converter writes its bytes: uppercase, two digits each. */
export function hexValue(value: string): string {
  return [...new TextEncoder().encode(value)].map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join('')
}

function chainEntries({ id, entries }: RouteChain, add: AddEntry<ConditionMap>): void {
  const key = (...parts: (string | number)[]) => [id, ...parts].join(SEPARATOR)
  const bit = (i: number) => 1n << BigInt(i)
  const dimensions = [...new Set(entries.flatMap((entry) => conditionDimensions(entry.conditions)))]
  const untested = new Map(dimensions.map((dimension) => [dimension, 0n]))
  const exact = new Map<string, bigint>()
  const places = new Map<string, number>()
  add(FILES.conditionMap, key('*'), String(entries.reduce((mask, _, i) => mask | bit(i), 0n)))
  for (const [i, entry] of entries.entries()) {
    const tested = conditionDimensions(entry.conditions)
    for (const dimension of dimensions) if (!tested.includes(dimension)) untested.set(dimension, untested.get(dimension)! | bit(i))
    const method = entry.conditions?.method
    const values = [...(method ? [{ dimension: METHOD_DIMENSION, exact: method }] : []), ...(entry.conditions?.values ?? [])]
    for (const { dimension, exact: value, search } of values) {
      if (value !== undefined) {
        const at = key(dimension, hexValue(value))
        exact.set(at, (exact.get(at) ?? 0n) | bit(i))
        continue
      }
      const place = (places.get(dimension) ?? 0) + 1
      places.set(dimension, place)
      add(FILES.conditionRegexMap, `^${regexLiteral(`${key(dimension, place)}${SEPARATOR}`)}${search}`, String(bit(i)))
    }
    add(FILES.conditionKeysMap, key(String(bit(i))), entry.key)
  }
  for (const [dimension, mask] of untested) add(FILES.conditionMap, key(dimension), String(mask))
  for (const [at, mask] of exact) add(FILES.conditionMap, at, String(mask))
}

/** The condition map entries of one host: its chains'. Their keys start with the host (the regex map's after `^`), as every host map's. */
export function conditionEntries(config: HostConfig, add: AddEntry<ConditionMap>): void {
  for (const route of config.routes) if (route.chain) chainEntries(route.chain, add)
}

/** How the frontend fetches a dimension's value: the method, the path, a header's last line whole, a query parameter's first value as sent. */
function fetchOf(dimension: string): string {
  if (dimension === METHOD_DIMENSION) return 'method'
  if (dimension === PATH_DIMENSION) return 'path'
  return dimension.startsWith('h') ? `req.fhdr(${dimension.slice(1)})` : `url_param(${dimension.slice(1)})`
}

/**
 * In the frontend, after a route map lookup (`stage`): when it gave a chain, the chain's mask
 * computed and the first place met taken, its key and backend read again. When none is met, the
 * exact lookup's request goes on to the regular-expression and prefix lookups; the prefix
 * lookup's takes the chain's id as its key, which no per-route value has, and the default backend.
 */
export function conditionRules(set: SetVar, rules: readonly string[], stage: 'exact' | 'prefix'): string[] {
  if (!rules.includes(CONDITION_RULE)) return []
  const chain = 'if { var(txn.chain) -m found }'
  const tests = 'if { var(txn.condfree) -m found }'
  const lookup = (parts: string, variable = '', map = `map_str_int(${FILES.conditionMap})`) => `var(txn.chain),concat(${SEPARATOR}${parts},${variable},),${map}`
  const dimensions = rules.filter((rule) => rule.startsWith('cond|')).map((rule) => rule.slice('cond|'.length))
  const searched = new Set(rules.filter((rule) => rule.startsWith('cond-regex|')).map((rule) => rule.slice('cond-regex|'.length)))
  // A dimension the chain does not test has no `id|dim` entry: its lookup fails, and the mask is left as it is.
  const perDimension = dimensions.flatMap((dimension) => [
    '    http-request unset-var(txn.condfree)',
    set('condfree', lookup(dimension), chain),
    '    http-request unset-var(txn.condvalue)',
    set('condvalue', `${fetchOf(dimension)},hex`, tests),
    set('condhit', lookup(`${dimension}${SEPARATOR}`, 'txn.condvalue', `map_str_int(${FILES.conditionMap},0)`), 'if { var(txn.condvalue) -m found }'),
    set('condfree', 'var(txn.condfree),or(txn.condhit)', 'if { var(txn.condvalue) -m found }'),
    ...(searched.has(dimension)
      ? [
          '    http-request unset-var(txn.condraw)',
          set('condraw', fetchOf(dimension), tests),
          ...Array.from({ length: REGEX_PLACES }, (_, i) => [
            set(
              'condhit',
              lookup(`${dimension}${SEPARATOR}${i + 1}${SEPARATOR}`, 'txn.condraw', `map_reg_int(${FILES.conditionRegexMap},0)`),
              'if { var(txn.condraw) -m found }',
            ),
            set('condfree', 'var(txn.condfree),or(txn.condhit)', 'if { var(txn.condraw) -m found }'),
          ]).flat(),
        ]
      : []),
    set('condmask', 'var(txn.condmask),and(txn.condfree)', tests),
  ])
  const taken = 'if { var(txn.condkey) -m found }'
  return [
    '    http-request unset-var(txn.chain)',
    '    http-request unset-var(txn.condkey)',
    set('chain', 'var(txn.backend)', 'if { var(txn.backend) -m sub ? }'),
    `    http-request unset-var(txn.backend) ${chain}`,
    set('condmask', lookup('*', '', `map_str_int(${FILES.conditionMap},0)`), chain),
    ...perDimension,
    set('condbit', 'var(txn.condmask),neg,and(txn.condmask)', chain),
    set('condkey', lookup('', 'txn.condbit', `map_str(${FILES.conditionKeysMap})`), `${chain} { var(txn.condbit) -m int gt 0 }`),
    set('key', 'var(txn.condkey)', taken),
    set('backend', `var(txn.key),map_str(${FILES.exactMap})`, taken),
    ...(stage === 'prefix' ? [set('key', 'var(txn.chain)', `${chain} !{ var(txn.condkey) -m found }`)] : []),
  ]
}
