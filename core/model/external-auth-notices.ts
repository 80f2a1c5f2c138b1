import { EXTERNAL_AUTH_FEATURES } from '../annotations/external-auth-features.ts'
import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import type { Ingress } from '../kube/ingress.ts'

/** Why `$host` in auth-url cannot be honoured on a rule: its host is the client's choice there, which would choose the auth service. */
const HOST_CHOSEN_BY_CLIENT =
  'auth-url uses $host on a rule without a host or with a wildcard host: the client would choose the auth service by its Host header, so the routes are refused rather than served open'

/**
 * What the external authentication annotations ask for that is not done: companions without
 * auth-url are ignored (warnings); auth-url with `$host` on a rule whose host the client picks
 * (none, or a wildcard) is refused, since the client would then name the service that lets it in.
 */
export function externalAuthNotices(
  ingress: Ingress,
  features: Features,
  namedBy: (feature: FeatureName) => string[],
): { warnings: AnnotationNotice[]; refusals: AnnotationNotice[] } {
  const warnings: AnnotationNotice[] = []
  const refusals: AnnotationNotice[] = []
  const url = features['auth-url']
  if (url === undefined) {
    for (const feature of EXTERNAL_AUTH_FEATURES)
      if (features[feature] !== undefined) for (const annotation of namedBy(feature)) warnings.push({ annotation, reason: 'ignored without auth-url' })
    return { warnings, refusals }
  }
  const hosts = (ingress.spec.rules ?? []).map((rule) => rule.host ?? '')
  if (url.includes('$host') && hosts.some((host) => host === '' || host.startsWith('*.')))
    for (const annotation of namedBy('auth-url')) refusals.push({ annotation, reason: HOST_CHOSEN_BY_CLIENT })
  if (ingress.spec.defaultBackend)
    for (const annotation of namedBy('auth-url'))
      refusals.push({
        annotation,
        reason: 'external authentication of spec.defaultBackend (the catch-all) is not implemented, so the routes are refused rather than served open',
      })
  return { warnings, refusals }
}
