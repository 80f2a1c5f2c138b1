import type { HostConfig, Route } from '../model/derive-host.ts'
import type { RouteBodySize } from '../model/route-body-size.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * Per-route request body limits (proxy-body-size): map values HAProxy reads at request time, so a
 * change is a runtime map edit; the rules only change with hapedge.
 */

export type BodySizeMap = typeof FILES.bodySizeExactMap | typeof FILES.bodySizePrefixMap

const BODY_SIZE_MAPS = { exact: FILES.bodySizeExactMap, prefix: FILES.bodySizePrefixMap } as const

/** A map value: the limit in bytes; `0` no limit (the Ingress asks for none); `-1` the route sets none. */
const NO_LIMIT = '0'
const UNSET = '-1'

/**
 * The body size map entries of one host, added through `add`, keyed as the route maps key its
 * routes. When one route has a limit every route of the host has an entry (`-1` when it sets
 * none), so the longest-prefix lookup never falls through to another route's limit.
 */
export function bodySizeEntries(config: HostConfig, add: AddEntry<BodySizeMap>): void {
  routeValueEntries(add, config.host, config.routes, BODY_SIZE_MAPS, bodySizeOf, UNSET)
}

function bodySizeOf({ bodySize }: Route): string | undefined {
  return bodySizeValue(bodySize)
}

function bodySizeValue(size: RouteBodySize | undefined): string | undefined {
  return size === undefined ? undefined : size === null ? NO_LIMIT : String(size)
}

/**
 * How long HAProxy waits for a body without Content-Length before checking it (it stops earlier
 * when the body has arrived or its buffer is full); a client slower than this gets 408. The
 * default `timeout client`, so a client that may idle that long may also take that long to start.
 */
export const BODY_WAIT = '60s'

/** The settings ConfigMap's proxy-body-size, set in `global` when there is one: the limit of the routes that set none. */
const DEFAULT_VAR = 'proc.body_size_default'

/** The `global` line that sets the cluster's default limit, when it has one (a change reloads, as every setting does). */
export function bodySizeDefault(size: RouteBodySize | undefined): string[] {
  return typeof size === 'number' ? [`    set-var ${DEFAULT_VAR} int(${size})`] : []
}

const LIMITED = '{ var(txn.body_limit) -m int gt 0 }'

/**
 * In the frontend, once the request key is known and access is checked: the route's limit, looked
 * up as its backend was (the cluster's default when it sets none), and 413 above it: above the
 * announced Content-Length, at once (HAProxy has checked the header is one number); then above
 * `req.body_size`, which over HTTP/1.1 is the announced length too but over HTTP/2 and for a body
 * without Content-Length (chunked) is the data HAProxy holds, so for the latter it first waits for
 * the body, which stops when the whole body has arrived or the request buffer is full (what that
 * leaves unchecked: body-size-notices.ts).
 */
export function bodySizeRules(set: SetVar): string[] {
  return [
    ...routeValueLookup(set, 'body_limit', BODY_SIZE_MAPS, true),
    set('body_limit', `var(${DEFAULT_VAR})`, 'unless { var(txn.body_limit) -m int ge 0 }'),
    `    http-request wait-for-body time ${BODY_WAIT} if ${LIMITED} !{ req.hdr(content-length) -m found }`,
    `    http-request deny deny_status 413 if ${LIMITED} { req.fhdr(content-length),sub(txn.body_limit) -m int gt 0 }`,
    `    http-request deny deny_status 413 if ${LIMITED} { req.body_size,sub(txn.body_limit) -m int gt 0 }`,
  ]
}
