import { quote } from '../syntax/fields.ts'
import { invalid, parser } from './values.ts'

/**
 * When a failed request is tried again on another server: NGINX's `proxy_next_upstream` words
 * (ingress-nginx's and NGINX Inc.'s `proxy-next-upstream`) as HAProxy's `retry-on` keywords.
 * HAProxy retries every method alike, so NGINX's rule (POST, LOCK and PATCH only with
 * `non_idempotent`) is kept by a `disable-l7-retry` rule in the backend (render-upstream.ts).
 */
export interface RetryOn {
  /** `retry-on` keywords and status codes; `['none']` for `off`. */
  on: string[]
  /** `non_idempotent`: POST, LOCK and PATCH are retried too. */
  nonIdempotent: boolean
}

/** Each NGINX condition, as the HAProxy 2.6 conditions that cover it (configuration.txt, retry-on). */
const CONDITIONS: Readonly<Record<string, readonly string[]>> = {
  // "an error occurred while establishing a connection with the server, passing a request to it, or reading the response header"
  error: ['conn-failure', 'empty-response'],
  // "a timeout has occurred while establishing a connection with the server, passing a request to it, or reading the response header"
  timeout: ['conn-failure', 'response-timeout'],
  invalid_header: ['junk-response'],
  http_500: ['500'],
  http_502: ['502'],
  http_503: ['503'],
  http_504: ['504'],
  http_403: ['403'],
  http_404: ['404'],
}

/** The conditions ingress-nginx retries on when a tries count is given alone (its ConfigMap default, "error timeout"). */
export const DEFAULT_RETRY_ON: RetryOn = { on: ['conn-failure', 'empty-response', 'response-timeout'], nonIdempotent: false }

export const nextUpstream = parser<RetryOn>((value) => {
  const words = value.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return invalid('must name at least one condition, such as "error timeout"')
  if (words.includes('off')) return words.length === 1 ? { on: ['none'], nonIdempotent: false } : invalid('"off" must stand alone')
  const on = new Set<string>()
  let nonIdempotent = false
  for (const word of words) {
    if (word === 'non_idempotent') nonIdempotent = true
    else if (CONDITIONS[word]) for (const condition of CONDITIONS[word]) on.add(condition)
    else if (word === 'http_429') return invalid('"http_429": HAProxy 2.6 cannot retry on a 429')
    else
      return invalid(`${quote(word)} must be error, timeout, invalid_header, http_500, http_502, http_503, http_504, http_403, http_404, non_idempotent or off`)
  }
  if (on.size === 0) return invalid('"non_idempotent" must come with a condition, such as "error timeout non_idempotent"')
  return { on: [...on], nonIdempotent }
})

/** `proxy-next-upstream-tries`: how many servers a request may be tried on, the first included (HAProxy's `retries` is one less). */
export const nextUpstreamTries = parser((value) => {
  const tries = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN
  if (tries === 0) return invalid('"0" (no limit): HAProxy retries a number of times; give one, such as "3"')
  return tries >= 1 && tries <= 100 ? tries : invalid(`${quote(value)} must be a whole number of tries from 1 to 100`)
})
