import type { HostConfig } from '../model/derive-host.ts'
import { FILES } from './files.ts'
import { OWN_PORT } from './render-gateway-ports.ts'
import type { SetVar, AddEntry } from './route-keys.ts'

/**
 * The Gateway API's hostname precedence (HTTPRouteSpec.hostnames): the rules of every route whose
 * hostnames match a name are candidates, those of the route with the longest non-wildcard name
 * first, then the longest wildcard. A host HTTPRoutes and GRPCRoutes alone serve (fallsThrough,
 * derive-host.ts) is a line of `maps/fall-through.map`, whose value is the name its next host is
 * looked up by: its own for an exact name, its suffix for a wildcard (`*.example.com` →
 * `example.com`). When none of its routes takes a request, the frontend looks the request up
 * again at the next host: for an exact name `*.` + its parent domain, then the longest wildcard
 * suffix (maps/wildcard-hosts.map); for a wildcard, the wildcards of a shorter suffix; then the
 * rules without host (on a port of its own, the port's). Each host's rules come whole before the
 * next's, whatever the next's match (an Exact path there does not beat a PathPrefix `/` here).
 * The map is the host's own entry, so a wildcard route's change never touches the names under it.
 * An Ingress's host is not in the map: a known host whose paths do not match keeps its requests; nor
 * is a listener's own hostname, whose listener is the most specific for the names under it (listener
 * isolation: a wider host's routes are other listeners').
 */
export function fallThroughEntries(config: HostConfig, add: AddEntry<typeof FILES.fallThroughMap>): void {
  if (config.fallsThrough) add(FILES.fallThroughMap, config.host, config.host.startsWith('*.') ? config.host.slice(2) : config.host)
}

/**
 * How many hosts a request may fall through to after its first: an exact name, two wildcards
 * above it and the rules without host. HAProxy has no loop, so each is a round of rules; a name
 * under three nested wildcards that HTTPRoutes alone serve reaches no fourth host.
 */
export const FALL_THROUGH_ROUNDS = 3

/** Met while a round falls through: its host took nothing and is in the map. */
const FALLING = '{ var(txn.fallfrom) -m found }'

/**
 * The rounds, after the first host's lookups (`lookup`, the frontend's route lookups from
 * `txn.vhost` into `txn.key` and `txn.backend`, given the round's guarded `set`); and once they
 * are done, a request no host took gets its first host and key back, so that what follows (the
 * HTTPS redirect of a host only HTTPS listeners serve, the default backend) is as before.
 */
export function fallThroughRules(set: SetVar, lookup: (set: SetVar) => string[], ownPorts: boolean): string[] {
  const falling = guarded(set, FALLING)
  const unfound = '!{ var(txn.backend) -m found }'
  const round = (first: boolean) => [
    '    http-request unset-var(txn.fallfrom)',
    set('fallfrom', `var(txn.vhost),map_str(${FILES.fallThroughMap})`, `if ${unfound} { var(txn.vhost) -m found }`),
    ...(first ? [falling('firstvhost', 'var(txn.vhost)'), falling('firstkey', 'var(txn.key)')] : []),
    '    http-request unset-var(txn.next)',
    '    http-request unset-var(txn.nextparent)',
    falling('nextparent', 'var(txn.fallfrom),field(2,.,0)', 'if !{ var(txn.vhost) -m beg *. }'),
    set('next', `str(*.),concat(,txn.nextparent,),map_str(${FILES.hostsMap})`, 'if { var(txn.nextparent) -m found }'),
    falling('next', `var(txn.fallfrom),map_reg(${FILES.wildcardHostsMap})`, 'unless { var(txn.next) -m found }'),
    ...(ownPorts ? [falling('next', 'var(txn.ownport)', `if !{ var(txn.next) -m found } ${OWN_PORT}`)] : []),
    falling('vhost', 'var(txn.next)', 'if { var(txn.next) -m found }'),
    `    http-request unset-var(txn.vhost) if ${FALLING} !{ var(txn.next) -m found }`,
    `    http-request unset-var(txn.regexroute) if ${FALLING}`,
    ...lookup(falling),
  ]
  return [
    ...Array.from({ length: FALL_THROUGH_ROUNDS }, (_, i) => round(i === 0)).flat(),
    set('vhost', 'var(txn.firstvhost)', `if ${unfound} { var(txn.firstvhost) -m found }`),
    set('key', 'var(txn.firstkey)', `if ${unfound} { var(txn.firstkey) -m found }`),
  ]
}

/**
 * `set` whose rules run only while `guard` is met: `if A B` becomes `if guard A B`, `unless { A }`
 * `if guard !{ A }`. Conditions with `or`, or `unless` over several terms, have no such form and are refused.
 */
export function guarded(set: SetVar, guard: string): SetVar {
  return (name, expr, condition = '') => set(name, expr, guardedCondition(guard, condition))
}

function guardedCondition(guard: string, condition: string): string {
  if (condition === '') return `if ${guard}`
  if (condition.includes(' or ')) throw new Error(`a guarded rule's condition has no "or": ${condition}`)
  if (condition.startsWith('if ')) return `if ${guard} ${condition.slice('if '.length)}`
  const term = condition.slice('unless '.length)
  if (condition.startsWith('unless ') && term.split('{').length === 2) return `if ${guard} !${term}`
  throw new Error(`a guarded rule's condition is one "if" or one "unless" term: ${condition}`)
}
