import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import type { Ingress } from '../kube/ingress.ts'
import { otherWwwName } from './www-name.ts'

/**
 * What an Ingress's redirect annotations ask for that is not done as written, so it is told, never
 * silent: permanent-redirect beside temporal-redirect (temporal wins, as ingress-nginx reads them),
 * and from-to-www-redirect for hosts that have no other name to redirect.
 */
export function redirectNotices(ingress: Ingress, features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  const notices: AnnotationNotice[] = []
  if (features['temporal-redirect'] !== undefined && features['permanent-redirect'] !== undefined)
    for (const feature of ['permanent-redirect', 'permanent-redirect-code'] as const)
      for (const annotation of annotationsOf(feature)) notices.push({ annotation, reason: 'temporal-redirect takes precedence, as in ingress-nginx; ignored' })
  if (features['from-to-www-redirect']) {
    const hosts = (ingress.spec.rules ?? []).filter((rule) => rule.http).map((rule) => rule.host ?? '')
    const without = [...new Set(hosts.filter((host) => otherWwwName(host) === undefined))]
    if (without.length > 0) {
      const named = without.map((host) => (host === '' ? 'the rules without host' : `"${host}"`)).join(', ')
      const reason = `no other name to redirect for ${named} (a wildcard, or a name beginning "www.www."); ignored there`
      for (const annotation of annotationsOf('from-to-www-redirect')) notices.push({ annotation, reason })
    }
  }
  return notices
}
