import { asksNothing, type Features } from '../annotations/features.ts'
import { sha256Text } from '../hash.ts'
import type { Ingress } from '../kube/ingress.ts'
import { describeIngress } from './ingress-order.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

/** Client addresses each window's table holds at once (haproxytech's rate-limit-size default); the oldest leave first. */
export const TABLE_SIZE = '100k'

/**
 * The windows HAProxy counts a client's requests over: one stick table each, with a sliding
 * `http_req_rate` of that period, shared by every Ingress (its key holds the Ingress, LIMIT_ID).
 * They are structural; the limits are map values (render-limits.ts), so a changed limit is a map edit.
 */
export const LIMIT_WINDOWS = [
  { name: '1s', ms: 1000 },
  { name: '1m', ms: 60_000 },
  { name: '1h', ms: 3_600_000 },
] as const
export type LimitWindow = (typeof LIMIT_WINDOWS)[number]['name']

/** ingress-nginx's limit-burst-multiplier when unset (its annotations.md, Rate Limiting). */
export const DEFAULT_BURST_MULTIPLIER = 5

/** haproxytech's rate-limit-period when unset (its annotations.md, Rate Limit). */
export const DEFAULT_PERIOD_MS = 1000

/**
 * An Ingress's limits, per client address and per Ingress (ingress-nginx keeps a zone per Ingress):
 * the most requests each window may hold, the requests in progress at once, and the status a refused
 * request is answered (the settings' when unset).
 */
export interface RouteLimits {
  /** Which Ingress the counts are of: a short hash of its name, so the tables' keys stay short (`<address>|<id>`). */
  id: string
  windows: Partial<Record<LimitWindow, number>>
  connections?: number
  status?: number
}

/** The Ingress part of a table key: 12 hex digits of SHA-256 (48 bits; two Ingresses sharing one would share their counts). */
export function limitId(owner: string): string {
  return sha256Text(owner).slice(0, 12)
}

/**
 * The windows a rate with a burst is held to. NGINX's leaky bucket (ingress-nginx: `burst=rate×multiplier
 * nodelay`) takes `burst + 1` requests at once, then one each 1/rate; HAProxy counts a sliding window
 * instead, so the rate is held over two: its own period, which takes `rate + burst` (as many as NGINX
 * takes within one period from a full bucket), and sixty of them, which takes `60 × rate + burst`, so a
 * client that keeps sending is held near the rate (within burst/60 of it), not to `rate + burst`.
 */
function rateWindows(rate: number, burst: number, period: '1s' | '1m'): Partial<Record<LimitWindow, number>> {
  const longer = period === '1s' ? '1m' : '1h'
  return { [period]: rate + burst, [longer]: 60 * rate + burst }
}

/**
 * haproxytech's `rate-limit-requests` over `rate-limit-period`: counted over the longest window not
 * longer than the period, scaled to it (at least one request), so it never lets more through within
 * the period than asked; a period of one of the windows is counted exactly. (limit-notices.ts tells the scaled case.)
 */
export function periodWindow(requests: number, periodMs: number): [LimitWindow, number] {
  const window = [...LIMIT_WINDOWS].reverse().find((candidate) => candidate.ms <= periodMs) ?? LIMIT_WINDOWS[0]
  return [window.name, Math.max(1, Math.floor((requests * window.ms) / periodMs))]
}

/** The tighter of two limits of one window. */
function merge(into: Partial<Record<LimitWindow, number>>, from: Partial<Record<LimitWindow, number>>): void {
  for (const [window, limit] of Object.entries(from) as [LimitWindow, number][]) into[window] = Math.min(into[window] ?? limit, limit)
}

/** The limits features ask for, or undefined when they ask for none. */
export function limitsOf(features: Features, owner: string): RouteLimits | undefined {
  const burst = features['limit-burst-multiplier'] ?? DEFAULT_BURST_MULTIPLIER
  const windows: Partial<Record<LimitWindow, number>> = {}
  const rps = features['limit-rps']
  const rpm = features['limit-rpm']
  const requests = features['rate-limit-requests']
  if (rps !== undefined) merge(windows, rateWindows(rps, rps * burst, '1s'))
  if (rpm !== undefined) merge(windows, rateWindows(rpm, rpm * burst, '1m'))
  if (requests !== undefined) merge(windows, Object.fromEntries([periodWindow(requests, features['rate-limit-period'] ?? DEFAULT_PERIOD_MS)]))
  const connections = features['limit-connections']
  if (Object.keys(windows).length === 0 && connections === undefined) return undefined
  const status = features['limit-status-code']
  return { id: limitId(owner), windows, ...(connections === undefined ? {} : { connections }), ...(status === undefined ? {} : { status }) }
}

/** An Ingress's limits: undefined when it sets none. */
export function routeLimitsOf(ingress: Ingress): RouteLimits | undefined {
  const { rendered } = ingressAnnotations(ingress)
  return asksNothing(rendered) ? undefined : limitsOf(rendered, describeIngress(ingress))
}

interface LimitedRoute extends OwnedRoute {
  limits?: RouteLimits
}

/** The routes of Ingresses that set limits, with them (a refused or redirected route reaches no Service, so it has none). */
export function withLimits<R extends LimitedRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, routeLimitsOf, (route, limits) => (reachesService(route) ? { ...route, limits } : route))
}
