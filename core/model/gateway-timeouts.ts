import { httpRouteTimeouts } from '../kube/gateway-http-filter.ts'
import { quote } from '../syntax/fields.ts'
import type { RouteTimeouts } from './route-timeouts.ts'

/** HAProxy's longest timeout (about 24.8 days): what a Gateway API `0s`, no timeout at all, comes closest to. */
export const LONGEST_TIMEOUT_MS = 2_147_483_647

/** A Gateway API duration: one to four numbers of at most 5 digits, each with its unit. */
const DURATION = /^([0-9]{1,5}(h|m|s|ms)){1,4}$/
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }

/** A Gateway API duration in milliseconds, if it is one. */
export function durationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined
  let total = 0
  for (const [, amount, unit] of text.matchAll(/([0-9]+)(ms|h|m|s)/g)) total += Number(amount) * UNIT_MS[unit!]!
  return total
}

/**
 * A rule's `timeouts` as the route's `timeout server` (render-timeouts.ts, a runtime map value):
 * the time the Service may stay silent before the request is answered 504. `backendRequest`
 * bounds one request to the Service and `request` the whole answer, which HAProxy 2.6 cannot time
 * as one deadline: the shorter of the two is the Service's timeout, each read of its answer
 * starting it again. `0s` (none) is HAProxy's longest timeout.
 */
export function readRuleTimeouts(timeouts: unknown, at: string, reasons: string[]): RouteTimeouts | undefined {
  if (timeouts === undefined) return undefined
  const parsed = httpRouteTimeouts.safeParse(timeouts)
  if (!parsed.success) {
    reasons.push(`${at}: must be an object with request and backendRequest durations`)
    return undefined
  }
  const limits: number[] = []
  for (const field of ['request', 'backendRequest'] as const) {
    const text = parsed.data[field]
    if (text === undefined) continue
    const ms = durationMs(text)
    if (ms === undefined) reasons.push(`${at}.${field}: ${quote(text)} is not a duration (such as 500ms, 10s, 1m30s)`)
    else if (ms > LONGEST_TIMEOUT_MS) reasons.push(`${at}.${field}: ${quote(text)} is longer than HAProxy's longest timeout (${LONGEST_TIMEOUT_MS} ms)`)
    else if (ms > 0) limits.push(ms)
  }
  const { request, backendRequest } = parsed.data
  const [requestMs, backendMs] = [request, backendRequest].map((text) => (text === undefined ? undefined : durationMs(text)))
  if (requestMs && backendMs && backendMs > requestMs) reasons.push(`${at}.backendRequest: must not be longer than request`)
  if (request === undefined && backendRequest === undefined) return undefined
  return { server: limits.length > 0 ? Math.min(...limits) : LONGEST_TIMEOUT_MS }
}
