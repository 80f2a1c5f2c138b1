import type { Prefix, Vocabulary } from './vocabularies.ts'

/**
 * Why a key under a known prefix is not honoured, where a reason says more than "not supported":
 * one that exists but is not access control.
 */
const RATE_LIMIT = 'rate limiting is not supported by hapedge yet (it limits load, not who may enter: the routes are served)'

const REASONS: readonly { vocabulary: Vocabulary; pattern: RegExp; reason: string }[] = [
  { vocabulary: 'ingress-nginx', pattern: /^(limit-|global-rate-limit)/, reason: RATE_LIMIT },
  { vocabulary: 'haproxy-ingress', pattern: /^limit-/, reason: RATE_LIMIT },
  { vocabulary: 'haproxytech', pattern: /^rate-limit-/, reason: RATE_LIMIT },
  { vocabulary: 'nginx-inc', pattern: /^limit-req-/, reason: RATE_LIMIT },
  { vocabulary: 'hapedge', pattern: /./, reason: 'not a hapedge annotation' },
]

export function unsupportedReason(prefix: Prefix, suffix: string): string {
  const found = REASONS.find((entry) => prefix.vocabularies.includes(entry.vocabulary) && entry.pattern.test(suffix))
  return found?.reason ?? 'not supported by hapedge'
}
