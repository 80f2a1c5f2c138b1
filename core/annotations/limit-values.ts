import { quote } from '../syntax/fields.ts'
import { haproxyTime, invalid, parser, statusCode, wholeNumber } from './values.ts'

/**
 * Values of the rate and connection limits (limit-rps, limit-rpm, limit-connections, …): whole
 * numbers written into a map value (render-limits.ts), never into the configuration's text.
 */

/** The largest count a limit takes: well within HAProxy's 32-bit counters, and far above any real limit. */
export const MAX_LIMIT = 1_000_000_000

/** Requests in a period, or connections at once: at least one. */
export const limitCount = wholeNumber(1, MAX_LIMIT)

/** limit-burst-multiplier: the burst is the rate times it; 0 is no burst (haproxy-ingress's and NGINX Inc.'s limits have none). */
export const burstMultiplier = wholeNumber(0, 1000)

/** haproxytech `rate-limit-size`: how many client addresses its table holds ("100k" in its page); read, and told apart (limit-notices.ts). */
export const tableSize = parser((value) => {
  const match = /^(\d{1,9})([km])?$/i.exec(value.trim())
  const size = match ? Number(match[1]) * { '': 1, k: 1000, m: 1_000_000 }[(match[2] ?? '').toLowerCase()]! : 0
  return size >= 1 && size <= MAX_LIMIT ? size : invalid(`${quote(value)} must be a number of entries such as "100k"`)
})

/** haproxytech `rate-limit-period`: an HAProxy time, in milliseconds (its page: "1s" by default). */
export const limitPeriod = haproxyTime

/**
 * The statuses a refused request may be answered with: those HAProxy 2.6's `deny_status` has an
 * error page for (anything else fails its configuration check), less 200.
 */
export const REFUSAL_STATUSES = [400, 401, 403, 404, 405, 407, 408, 410, 413, 421, 422, 425, 429, 500, 501, 502, 503, 504] as const

export const refusalStatus = statusCode(REFUSAL_STATUSES)

/** What hapedge answers a limited request with unless told otherwise (Too Many Requests). */
export const DEFAULT_REFUSAL_STATUS = 429

/** NGINX Inc.'s `limit-req-rate`: `<n>r/s` or `<n>r/m`, as a count and its period in milliseconds. */
export interface NginxRate {
  requests: number
  periodMs: 1000 | 60_000
}

export const nginxRate = parser<NginxRate>((value) => {
  const match = /^(\d{1,10})r\/([sm])$/.exec(value.trim())
  const requests = match ? Number(match[1]) : 0
  if (!match || requests < 1 || requests > MAX_LIMIT) return invalid(`${quote(value)} must be a rate such as "10r/s" or "600r/m"`)
  return { requests, periodMs: match[2] === 's' ? 1000 : 60_000 }
})
