import type { Prefix, Vocabulary } from './vocabularies.ts'

/**
 * Why a key under a known prefix is not honoured, where a reason says more than "not supported":
 * one that exists but is not access control. The first entry that matches gives the reason.
 */
const BANDWIDTH = 'bandwidth limits (NGINX limit_rate) have no HAProxy 2.6 equivalent: the responses are sent at full speed'
const LIMIT_REQ = 'hapedge refuses what passes limit-req-rate (and counts per client address); it does not read this'

const REASONS: readonly { vocabulary: Vocabulary; pattern: RegExp; reason: string }[] = [
  { vocabulary: 'ingress-nginx', pattern: /^limit-rate/, reason: BANDWIDTH },
  {
    vocabulary: 'ingress-nginx',
    pattern: /^global-rate-limit/,
    reason: 'a limit shared by every replica through memcached is not implemented: limit-rps and limit-rpm count per HAProxy',
  },
  { vocabulary: 'nginx-inc', pattern: /^limit-req-burst$/, reason: `limit-req-rate is held without a burst (stricter than asked): ${LIMIT_REQ}` },
  { vocabulary: 'nginx-inc', pattern: /^limit-req-(no-)?delay$/, reason: `HAProxy refuses requests past the limit and never delays them: ${LIMIT_REQ}` },
  { vocabulary: 'nginx-inc', pattern: /^limit-req-key$/, reason: `requests are counted per client address (the default key): ${LIMIT_REQ}` },
  { vocabulary: 'nginx-inc', pattern: /^limit-req-/, reason: LIMIT_REQ },
  { vocabulary: 'hapedge', pattern: /./, reason: 'not a hapedge annotation' },
]

export function unsupportedReason(prefix: Prefix, suffix: string): string {
  const found = REASONS.find((entry) => prefix.vocabularies.includes(entry.vocabulary) && entry.pattern.test(suffix))
  return found?.reason ?? 'not supported by hapedge'
}
