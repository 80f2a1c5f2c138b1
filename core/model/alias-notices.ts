import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import type { Ingress } from '../kube/ingress.ts'

/** The host an Ingress's aliases are served as: the first host its rules name (ingress-nginx gives them to each of its hosts, and nginx then serves an alias by one of them). */
export function aliasTarget(ingress: Ingress): string | undefined {
  return ingress.spec.rules?.find((rule) => rule.http && rule.host)?.host
}

/** What an Ingress's server-alias asks for that is not done as written: an Ingress of several hosts, or of none. */
export function aliasNotices(ingress: Ingress, features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  if (features['server-alias'] === undefined) return []
  const hosts = new Set(ingress.spec.rules?.filter((rule) => rule.http).map((rule) => rule.host ?? ''))
  const target = aliasTarget(ingress)
  const reason =
    target === undefined
      ? 'the Ingress names no host to serve the aliases as (a rule without host is the catch-all); ignored'
      : hosts.size > 1
        ? `the aliases are served as "${target}", the first host of spec.rules (the Ingress names ${hosts.size})`
        : undefined
  return reason === undefined ? [] : annotationsOf('server-alias').map((annotation) => ({ annotation, reason }))
}
